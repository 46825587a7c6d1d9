import { camelise, snakeise, type Camelised } from '@workspace/kit';
import type { Knex } from '@workspace/kit';

export type IssueMethod = 'email' | 'portal' | 'print';

interface StatementRow {
  tenant_id: string;
  id: string;
  subcontractor_id: string;
  subcontractor_name: string;
  tax_month: string;
  invoice_ids: string[];
  invoice_count: number;
  gross_p: number;
  materials_p: number;
  labour_p: number;
  cis_deduction_p: number;
  cis_rate: number;
  verification_reference: string;
  status: 'generated' | 'issued';
  generated_at: Date;
  generated_by: string;
  issued_at: Date | null;
  issued_method: IssueMethod | null;
  issued_by: string | null;
  /** 1 for a month's first statement; each corrected statement one more. */
  version: number;
  /** The statement this one corrects, and the one that corrected this one (the old one stays on record). */
  supersedes: string | null;
  superseded_by: string | null;
  superseded_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type StatementRecord = Camelised<StatementRow>;

/** A statement's invoices and the totals over them. */
export interface StatementContents {
  invoiceIds: string[];
  invoiceCount: number;
  grossP: number;
  materialsP: number;
  labourP: number;
  cisDeductionP: number;
  cisRate: number;
}

export interface NewStatement extends StatementContents {
  tenantId: string;
  id: string;
  subcontractorId: string;
  subcontractorName: string;
  taxMonth: string;
  verificationReference: string;
  generatedAt: Date;
  generatedBy: string;
  version?: number;
  supersedes?: string;
}

const toRecord = (row: StatementRow): StatementRecord => camelise(row);

/** The tenant's payment and deduction statements: the only code touching `statements`. */
export class StatementStore {
  constructor(private readonly trx: Knex.Transaction) {}

  async find(id: string): Promise<StatementRecord | undefined> {
    const row = await this.trx<StatementRow>('statements').where({ id }).first();
    return row ? toRecord(row) : undefined;
  }

  /** A statement of the subcontractor's that has been issued (what its portal may read). */
  async findIssued(id: string, subcontractorId: string): Promise<StatementRecord | undefined> {
    const row = await this.trx<StatementRow>('statements')
      .where({ id, subcontractor_id: subcontractorId, status: 'issued' })
      .first();
    return row ? toRecord(row) : undefined;
  }

  /** The subcontractor's issued statements (a corrected one in place of the one it replaced), newest first. */
  async issuedOf(subcontractorId: string, limit: number): Promise<StatementRecord[]> {
    const rows = await this.trx<StatementRow>('statements')
      .where({ subcontractor_id: subcontractorId, status: 'issued' })
      .whereNull('superseded_by')
      .orderBy('tax_month', 'desc')
      .limit(limit);
    return rows.map(toRecord);
  }

  /** The current statements of a tax month (none a correction replaced), newest first. */
  async ofMonth(taxMonth: string): Promise<StatementRecord[]> {
    const rows = await this.trx<StatementRow>('statements')
      .where({ tax_month: taxMonth })
      .whereNull('superseded_by')
      .orderBy('generated_at', 'desc');
    return rows.map(toRecord);
  }

  /** The current statements of a tax month of the given subcontractors. */
  async ofMonthFor(taxMonth: string, subcontractorIds: string[]): Promise<StatementRecord[]> {
    const rows = await this.trx<StatementRow>('statements')
      .where({ tax_month: taxMonth })
      .whereNull('superseded_by')
      .whereIn('subcontractor_id', subcontractorIds);
    return rows.map(toRecord);
  }

  async exists(subcontractorId: string, taxMonth: string): Promise<boolean> {
    const row = await this.trx<StatementRow>('statements')
      .where({ subcontractor_id: subcontractorId, tax_month: taxMonth })
      .whereNull('superseded_by')
      .first('id');
    return row !== undefined;
  }

  /** The current statement of a subcontractor and tax month, locked for update. */
  async lockOf(subcontractorId: string, taxMonth: string): Promise<StatementRecord | undefined> {
    const row = await this.trx<StatementRow>('statements')
      .where({ subcontractor_id: subcontractorId, tax_month: taxMonth })
      .whereNull('superseded_by')
      .forUpdate()
      .first();
    return row ? toRecord(row) : undefined;
  }

  /** Inserts a generated statement; undefined when one with its key exists already. */
  async insertIfAbsent(statement: NewStatement): Promise<StatementRecord | undefined> {
    const [row] = await this.trx<StatementRow>('statements')
      .insert({ ...snakeise(statement), status: 'generated', updated_by: statement.generatedBy } as Record<
        string,
        unknown
      >)
      .onConflict()
      .ignore()
      .returning('*');
    return row ? toRecord(row) : undefined;
  }

  /** A statement locked for update. */
  async lock(id: string): Promise<StatementRecord | undefined> {
    const row = await this.trx<StatementRow>('statements').where({ id }).forUpdate().first();
    return row ? toRecord(row) : undefined;
  }

  /** The old statement a correction replaces stays on record, pointing at its correction. */
  async markSuperseded(id: string, by: { id: string; at: Date; userId: string }): Promise<void> {
    await this.trx('statements')
      .where({ id })
      .update({ superseded_by: by.id, superseded_at: by.at, updated_at: by.at, updated_by: by.userId });
  }

  /** A generated statement whose month has no paid invoice any more (nothing to issue). */
  async deleteGenerated(id: string): Promise<void> {
    await this.trx('statements').where({ id, status: 'generated' }).delete();
  }

  async updateContents(id: string, contents: StatementContents, actorId: string): Promise<void> {
    await this.trx('statements')
      .where({ id })
      .update({ ...snakeise(contents), updated_at: new Date(), updated_by: actorId });
  }

  async markIssued(
    id: string,
    issue: { method: IssueMethod; userId: string; at: Date },
  ): Promise<StatementRecord | undefined> {
    const [row] = await this.trx<StatementRow>('statements')
      .where({ id })
      .update({
        status: 'issued',
        issued_at: issue.at,
        issued_method: issue.method,
        issued_by: issue.userId,
        updated_at: issue.at,
        updated_by: issue.userId,
      } as Record<string, unknown>)
      .returning('*');
    return row ? toRecord(row) : undefined;
  }

  /**
   * Moves one subcontractor's statements to another (a merge of duplicates, ADR 0039), except those of a tax month
   * the other already has a statement for (they stay with the merged record, as issued); answers how many moved.
   */
  async moveToSubcontractor(fromId: string, to: { id: string; name: string }): Promise<number> {
    const { trx } = this;
    return trx('statements')
      .where({ subcontractor_id: fromId })
      .whereNotIn('tax_month', trx('statements').where({ subcontractor_id: to.id }).select('tax_month'))
      .update({ subcontractor_id: to.id, subcontractor_name: to.name, updated_at: trx.fn.now() });
  }
}
