import { camelise, snakeise, type Camelised } from '@workspace/kit';
import type { Knex } from '@workspace/kit';
import type { CisDeclarations } from '@workspace/rules';
import type { ReturnLine, ReturnTotals, taxMonthPeriod } from '../domain/index.js';

export type ReturnStatus = 'draft' | 'ready' | 'submitted' | 'amended' | 'nil';
/** A return's period (cis.md section 3): the tax month's dates and labels, with its taxMonth. */
export type ReturnPeriod = ReturnType<typeof taxMonthPeriod> & { taxMonth: string };

interface ReturnRow {
  tenant_id: string;
  id: string;
  tax_month: string;
  status: ReturnStatus;
  locked: boolean;
  locked_at: Date | null;
  period: ReturnPeriod;
  deadlines: ReturnPeriod['deadlines'];
  totals: ReturnTotals;
  lines: ReturnLine[];
  issues: string[];
  submission_ref: string | null;
  submitted_at: Date | null;
  submitted_by: string | null;
  amendment_of: string | null;
  compiled_by: string | null;
  /** The submitted CIS300 document, sealed (it carries UTRs and NINOs in clear). */
  cis300_xml_enc: string | null;
  /** The declarations the return was submitted with, as ticked (migration 005); null before submission. */
  declarations: CisDeclarations | null;
  created_at: Date;
  updated_at: Date;
  updated_by: string | null;
}

export type ReturnRecord = Camelised<ReturnRow>;

/** What the period list needs of a return record. */
export type ReturnStanding = Pick<
  ReturnRecord,
  'id' | 'taxMonth' | 'status' | 'locked' | 'period' | 'totals' | 'submittedAt' | 'amendmentOf' | 'createdAt'
>;

export type ReturnChanges = Partial<Omit<ReturnRecord, 'tenantId' | 'id' | 'createdAt'>>;

const JSON_FIELDS = ['period', 'deadlines', 'totals', 'lines', 'issues', 'declarations'] as const;

/** The jsonb columns are written as JSON text. */
function columnsOf(changes: ReturnChanges): Record<string, unknown> {
  const columns = snakeise(changes);
  for (const field of JSON_FIELDS)
    if (changes[field] !== undefined)
      columns[field] = changes[field] === null ? null : JSON.stringify(changes[field]);
  return columns;
}

/** The tenant's monthly returns (CIS300): the only code touching `returns`. */
export class ReturnStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /** The return of a tax month: its latest record (an amendment supersedes the original). */
  async latest(taxMonth: string, options: { lock?: boolean } = {}): Promise<ReturnRecord | undefined> {
    const query = this.trx<ReturnRow>('returns').where({ tax_month: taxMonth }).orderBy('created_at', 'desc');
    const row = await (options.lock ? query.forUpdate() : query).first();
    return row ? camelise(row) : undefined;
  }

  /**
   * The month's last submitted (locked) record, or undefined when the month's return was never submitted: "is month
   * X's return submitted?". An amendment in progress does not hide it (the submitted original stays the one filed).
   */
  async lastSubmitted(taxMonth: string): Promise<ReturnRecord | undefined> {
    const row = await this.trx<ReturnRow>('returns')
      .where({ tax_month: taxMonth, locked: true })
      .orderBy('created_at', 'desc')
      .first();
    return row ? camelise(row) : undefined;
  }

  async find(id: string, options: { lock?: boolean } = {}): Promise<ReturnRecord | undefined> {
    const query = this.trx<ReturnRow>('returns').where({ id });
    const row = await (options.lock ? query.forUpdate() : query).first();
    return row ? camelise(row) : undefined;
  }

  /** The history: tax month descending, the newest record of a month first; a page of it. */
  async history(limit: number, offset = 0): Promise<ReturnRecord[]> {
    const rows = await this.trx<ReturnRow>('returns')
      .orderBy([
        { column: 'tax_month', order: 'desc' },
        { column: 'created_at', order: 'desc' },
      ])
      .limit(limit)
      .offset(offset);
    return rows.map((row) => camelise(row));
  }

  /** How many records the history holds. */
  async count(): Promise<number> {
    const row = await this.trx('returns').first<{ count: number } | undefined>(
      this.trx.raw('count(*)::int AS count'),
    );
    return row?.count ?? 0;
  }

  /**
   * Every record's standing, for the period list: tax month descending, the newest record of a month first (its
   * lines and document left out).
   */
  async standings(): Promise<ReturnStanding[]> {
    const rows = await this.trx<ReturnRow>('returns')
      .select(
        'id',
        'tax_month',
        'status',
        'locked',
        'period',
        'totals',
        'submitted_at',
        'amendment_of',
        'created_at',
      )
      .orderBy([
        { column: 'tax_month', order: 'desc' },
        { column: 'created_at', order: 'desc' },
      ]);
    return rows.map((row) => camelise(row));
  }

  async insert(
    values: ReturnChanges & { tenantId: string; id: string; taxMonth: string },
  ): Promise<ReturnRecord> {
    const [row] = await this.trx<ReturnRow>('returns')
      .insert(columnsOf(values) as never)
      .returning('*');
    if (!row) throw new Error('insert returned nothing');
    return camelise(row);
  }

  async update(id: string, changes: ReturnChanges): Promise<ReturnRecord | undefined> {
    const [row] = await this.trx<ReturnRow>('returns')
      .where({ id })
      .update(columnsOf(changes) as never)
      .returning('*');
    return row ? camelise(row) : undefined;
  }

  /** The documents stored in clear before they were sealed (migration 003): ids and documents. */
  async unsealedCis300(): Promise<{ id: string; xml: string }[]> {
    return this.trx('returns')
      .whereNotNull('cis300_xml')
      .select<{ id: string; xml: string }[]>('id', { xml: 'cis300_xml' });
  }

  /** Replaces a document stored in clear by its sealed form. */
  async sealCis300(id: string, sealed: string): Promise<void> {
    await this.trx('returns').where({ id }).update({ cis300_xml_enc: sealed, cis300_xml: null });
  }
}

/**
 * The tenants whose returns still hold a CIS300 document in clear, listed by migration 003 (tenant ids only, no
 * tenant isolation): the only code touching `cis300_seal_backlog`.
 */
export class Cis300SealBacklog {
  constructor(private readonly db: Knex) {}

  async tenants(): Promise<string[]> {
    const rows = await this.db<{ tenant_id: string }>('cis300_seal_backlog').select('tenant_id');
    return rows.map((row) => row.tenant_id);
  }

  /** The tenant's documents are all sealed (in the transaction that sealed them). */
  async done(trx: Knex.Transaction, tenantId: string): Promise<void> {
    await trx('cis300_seal_backlog').where({ tenant_id: tenantId }).delete();
  }
}
