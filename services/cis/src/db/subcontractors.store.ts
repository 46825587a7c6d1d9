import { camelise, containing, snakeise, type Camelised } from '@workspace/kit';
import type { Knex } from '@workspace/kit';
import type { IdentityKind } from '../domain/index.js';

export interface Address {
  line1: string;
  line2: string;
  city: string;
  county: string;
  postcode: string;
  country: 'GB' | 'NI';
}

export type SubcontractorType = 'individual' | 'company' | 'partnership';
export type VerificationStatus = 'gross' | 'standard' | 'higher';

interface SubcontractorRow {
  id: string;
  tenant_id: string;
  type: SubcontractorType;
  name: string;
  utr_enc: string | null;
  utr_masked: string;
  nino_enc: string | null;
  nino_masked: string;
  company_number: string;
  vat_number: string;
  vat_checked_at: Date | null;
  email: string;
  phone: string;
  mobile: string;
  registered_address: Address;
  trading_address: Address;
  trading_address_same_as_registered: boolean;
  gdpr_consent: boolean;
  gdpr_consent_date: Date | null;
  marketing_consent: boolean;
  portal_access: boolean;
  active: boolean;
  archived: boolean;
  verification_status: VerificationStatus;
  verification_rate: 0 | 20 | 30;
  verification_method: string;
  verification_reference: string;
  verification_notes: string;
  verified_date: string | null;
  verified_by: string | null;
  created_at: Date;
  updated_at: Date;
  created_by: string;
  updated_by: string;
  deleted_at: Date | null;
  utr_hash: string | null;
  nino_hash: string | null;
  crn_hash: string | null;
  known_duplicate: boolean;
  details_incomplete: boolean;
  merged_into: string | null;
  archive_note: string;
}

export type SubcontractorRecord = Camelised<SubcontractorRow>;

/** The columns a create or an edit writes (identifiers already sealed; addresses as objects). */
export type SubcontractorChanges = Partial<
  Omit<
    SubcontractorRecord,
    'id' | 'tenantId' | 'createdAt' | 'updatedAt' | 'createdBy' | 'updatedBy' | 'deletedAt'
  >
>;

/** The keyed hashes of a subcontractor's identifiers (ADR 0039), by kind. */
export type IdentityHashColumns = Record<IdentityKind, string | null>;

/** The names of the partial unique indexes over the hashes (migration 008), by kind. */
export const IDENTITY_INDEXES: Record<string, IdentityKind> = {
  subcontractors_unique_utr: 'utr',
  subcontractors_unique_nino: 'nino',
  subcontractors_unique_crn: 'crn',
};

const hashColumn = (kind: IdentityKind) => `${kind}_hash` as const;

/** The columns a recorded verification writes. */
export interface VerificationChanges {
  verificationStatus: VerificationStatus;
  verificationRate: 0 | 20 | 30;
  verificationMethod: string;
  verificationReference: string;
  verificationNotes: string;
  verifiedDate: string;
  verifiedBy: string;
}

export interface SubcontractorFilters {
  search?: string | undefined;
  status: 'all' | 'active' | 'archived';
  type: 'all' | SubcontractorType;
}

export interface SubcontractorStats {
  total: number;
  active: number;
  gross: number;
  standard: number;
}

const toRecord = (row: SubcontractorRow): SubcontractorRecord => camelise(row);

/** Addresses are jsonb columns: written as JSON text. */
function columnsOf(changes: SubcontractorChanges): Record<string, unknown> {
  const columns = snakeise(changes);
  if (changes.registeredAddress) columns.registered_address = JSON.stringify(changes.registeredAddress);
  if (changes.tradingAddress) columns.trading_address = JSON.stringify(changes.tradingAddress);
  return columns;
}

/** The tenant's subcontractors: the only code touching `subcontractors`. */
export class SubcontractorStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /** A live (not soft-deleted) subcontractor. */
  async find(id: string): Promise<SubcontractorRecord | undefined> {
    const row = await this.trx<SubcontractorRow>('subcontractors')
      .where({ id })
      .whereNull('deleted_at')
      .first();
    return row ? toRecord(row) : undefined;
  }

  /** A subcontractor, deleted or not (the records that name it keep it). */
  async findAny(id: string): Promise<SubcontractorRecord | undefined> {
    const row = await this.trx<SubcontractorRow>('subcontractors').where({ id }).first();
    return row ? toRecord(row) : undefined;
  }

  /** The subcontractors among `ids`, deleted or not. */
  async byIds(ids: string[]): Promise<SubcontractorRecord[]> {
    const rows = await this.trx<SubcontractorRow>('subcontractors').whereIn('id', ids);
    return rows.map(toRecord);
  }

  /** Every live subcontractor (an import matches its rows against them). */
  async allLive(): Promise<SubcontractorRecord[]> {
    const rows = await this.trx<SubcontractorRow>('subcontractors').whereNull('deleted_at');
    return rows.map(toRecord);
  }

  /** The live subcontractors the list screen's filters match. */
  private matching(query: SubcontractorFilters) {
    let builder = this.trx<SubcontractorRow>('subcontractors').whereNull('deleted_at');
    if (query.status === 'active') builder = builder.where({ archived: false });
    if (query.status === 'archived') builder = builder.where({ archived: true });
    if (query.type !== 'all') builder = builder.where({ type: query.type });
    const search = query.search?.trim();
    if (search) {
      const like = containing(search);
      builder = builder.where((w) => {
        void w.whereILike('name', like).orWhereILike('email', like).orWhereILike('utr_masked', like);
      });
    }
    return builder;
  }

  /** A page of the list (by name; soft-deleted never) with the filters of the list screen. */
  async list(
    query: SubcontractorFilters,
    page: { limit: number; offset: number },
  ): Promise<SubcontractorRecord[]> {
    const rows = await this.matching(query)
      .orderByRaw('lower(name), id')
      .limit(page.limit)
      .offset(page.offset);
    return rows.map(toRecord);
  }

  /** How many live subcontractors the filters match. */
  async count(query: SubcontractorFilters): Promise<number> {
    const row = await this.matching(query).count<{ count: string | number }[]>('* as count').first();
    return Number(row?.count ?? 0);
  }

  /** The four stat cards of the list. */
  async stats(): Promise<SubcontractorStats> {
    const { trx } = this;
    const all = await trx<SubcontractorRow>('subcontractors')
      .whereNull('deleted_at')
      .select(
        trx.raw('count(*)::int AS total'),
        trx.raw('count(*) FILTER (WHERE NOT archived)::int AS active'),
        trx.raw(`count(*) FILTER (WHERE verification_status = 'gross' AND NOT archived)::int AS gross`),
        trx.raw(`count(*) FILTER (WHERE verification_status = 'standard' AND NOT archived)::int AS standard`),
      )
      .first();
    return all as unknown as SubcontractorStats;
  }

  /** How many live subcontractors are not archived (the dashboard's tile). */
  async countActive(): Promise<number> {
    const { trx } = this;
    const counted = await trx('subcontractors')
      .whereNull('deleted_at')
      .where({ archived: false })
      .first<{ n: number }>(trx.raw('count(*)::int AS n'));
    return counted.n;
  }

  /** The live subcontractors among `ids`, locked for update. */
  async lockLive(ids: string[]): Promise<SubcontractorRecord[]> {
    const rows = await this.trx<SubcontractorRow>('subcontractors')
      .whereIn('id', ids)
      .whereNull('deleted_at')
      .forUpdate();
    return rows.map(toRecord);
  }

  /** The subcontractors among `ids`, deleted or not, locked for update. */
  async lockAny(ids: string[]): Promise<SubcontractorRecord[]> {
    const rows = await this.trx<SubcontractorRow>('subcontractors').whereIn('id', ids).forUpdate();
    return rows.map(toRecord);
  }

  async archive(ids: string[], userId: string): Promise<void> {
    const { trx } = this;
    await trx('subcontractors')
      .whereIn('id', ids)
      .update({ archived: true, active: false, updated_at: trx.fn.now(), updated_by: userId });
  }

  /** Soft-deletes: the deleted timestamp and user, archived and inactive; never listed again. */
  async softDelete(ids: string[], userId: string): Promise<void> {
    const { trx } = this;
    await trx('subcontractors').whereIn('id', ids).update({
      deleted_at: trx.fn.now(),
      deleted_by: userId,
      archived: true,
      active: false,
      updated_at: trx.fn.now(),
      updated_by: userId,
    });
  }

  async insert(
    subcontractor: SubcontractorChanges & {
      id: string;
      tenantId: string;
      createdBy: string;
      updatedBy: string;
    },
  ): Promise<SubcontractorRecord> {
    const [row] = await this.trx<SubcontractorRow>('subcontractors')
      .insert(columnsOf(subcontractor))
      .returning('*');
    if (!row) throw new Error('insert returned nothing');
    return toRecord(row);
  }

  /** Saves an edit (the update time is the database's). */
  async update(
    id: string,
    changes: SubcontractorChanges,
    userId: string,
  ): Promise<SubcontractorRecord | undefined> {
    const { trx } = this;
    const [row] = await trx<SubcontractorRow>('subcontractors')
      .where({ id })
      .update({ ...columnsOf(changes), updated_at: trx.fn.now(), updated_by: userId })
      .returning('*');
    return row ? toRecord(row) : undefined;
  }

  /** Records one verification for the given subcontractors; answers them as saved. */
  async verify(ids: string[], verification: VerificationChanges): Promise<SubcontractorRecord[]> {
    const { trx } = this;
    const rows = await trx<SubcontractorRow>('subcontractors')
      .whereIn('id', ids)
      .update({ ...snakeise(verification), updated_at: trx.fn.now(), updated_by: verification.verifiedBy })
      .returning('*');
    return rows.map(toRecord);
  }

  async grantPortalAccess(id: string): Promise<void> {
    await this.trx('subcontractors').where({ id }).update({ portal_access: true });
  }

  /** The live, not archived subcontractor (other than `exceptId`) whose identifier of `kind` hashes to `hash`. */
  async holderOf(
    kind: IdentityKind,
    hash: string,
    exceptId?: string,
  ): Promise<SubcontractorRecord | undefined> {
    let builder = this.trx<SubcontractorRow>('subcontractors')
      .where(hashColumn(kind), hash)
      .whereNull('deleted_at')
      .where({ archived: false });
    if (exceptId) builder = builder.whereNot({ id: exceptId });
    const row = await builder.orderBy([{ column: 'created_at' }, { column: 'id' }]).first();
    return row ? toRecord(row) : undefined;
  }

  /** The live, not archived subcontractor with this email (case ignored), the earliest first. */
  async holderOfEmail(email: string): Promise<SubcontractorRecord | undefined> {
    const row = await this.trx<SubcontractorRow>('subcontractors')
      .whereRaw('lower(email) = lower(?)', [email.trim()])
      .whereNot({ email: '' })
      .whereNull('deleted_at')
      .where({ archived: false })
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .first();
    return row ? toRecord(row) : undefined;
  }

  /** Live, not archived subcontractors holding at least one identifier hash (the duplicates are found among them). */
  async liveWithIdentity(): Promise<SubcontractorRecord[]> {
    const rows = await this.trx<SubcontractorRow>('subcontractors')
      .whereNull('deleted_at')
      .where({ archived: false })
      .where((w) => {
        void w.whereNotNull('utr_hash').orWhereNotNull('nino_hash').orWhereNotNull('crn_hash');
      })
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map(toRecord);
  }

  /**
   * Every subcontractor of the tenant, deleted or not, the earliest first, with the table locked against writes
   * until the transaction ends (the hashes are being filled in: no create may slip between).
   */
  async lockAllForHashing(): Promise<SubcontractorRecord[]> {
    await this.trx.raw('LOCK TABLE subcontractors IN SHARE ROW EXCLUSIVE MODE');
    const rows = await this.trx<SubcontractorRow>('subcontractors').orderBy([
      { column: 'created_at' },
      { column: 'id' },
    ]);
    return rows.map(toRecord);
  }

  /** Clears every hash of the tenant (before they are filled in again, in order). */
  async clearIdentityHashes(): Promise<void> {
    await this.trx('subcontractors').update({
      utr_hash: null,
      nino_hash: null,
      crn_hash: null,
      known_duplicate: false,
    });
  }

  async setIdentityHashes(id: string, hashes: IdentityHashColumns, knownDuplicate: boolean): Promise<void> {
    await this.trx('subcontractors').where({ id }).update({
      utr_hash: hashes.utr,
      nino_hash: hashes.nino,
      crn_hash: hashes.crn,
      known_duplicate: knownDuplicate,
    });
  }

  /** Whether another live, not archived subcontractor shares one of `row`'s identifier hashes. */
  async sharesIdentity(row: SubcontractorRecord): Promise<boolean> {
    const pairs = (['utr', 'nino', 'crn'] as const).flatMap((kind) => {
      const hash = row[`${kind}Hash`];
      return hash ? [[kind, hash] as const] : [];
    });
    if (pairs.length === 0) return false;
    const found = await this.trx<SubcontractorRow>('subcontractors')
      .whereNot({ id: row.id })
      .whereNull('deleted_at')
      .where({ archived: false })
      .where((w) => {
        for (const [kind, hash] of pairs) void w.orWhere(hashColumn(kind), hash);
      })
      .first('id');
    return found !== undefined;
  }

  /** The duplicate merged into `keepId`: archived, inactive, without portal access, with the note saying so. */
  async markMerged(id: string, keepId: string, note: string, userId: string): Promise<void> {
    const { trx } = this;
    await trx('subcontractors').where({ id }).update({
      archived: true,
      active: false,
      portal_access: false,
      known_duplicate: false,
      merged_into: keepId,
      archive_note: note,
      updated_at: trx.fn.now(),
      updated_by: userId,
    });
  }
}

/** The tenants whose subcontractors' identifier hashes are still to fill in (migration 008). */
export class IdentityHashBacklog {
  constructor(private readonly db: Knex) {}

  async tenants(): Promise<string[]> {
    const rows = await this.db<{ tenant_id: string }>('identity_hash_backlog').select('tenant_id');
    return rows.map((row) => row.tenant_id);
  }

  /** The tenant's hashes are all filled in (in the transaction that filled them). */
  async done(trx: Knex.Transaction, tenantId: string): Promise<void> {
    await trx('identity_hash_backlog').where({ tenant_id: tenantId }).delete();
  }
}
