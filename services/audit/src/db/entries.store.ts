import { camelise, type Knex } from '@workspace/kit';
import type { AuditEntry } from '../domain/entries.js';

interface EntryRow {
  tenant_id: string;
  seq: string;
  id: string;
  action: string;
  module: string;
  source: string;
  target_id: string;
  actor_id: string;
  occurred_at: Date;
  recorded_at: Date;
  source_event_id: string;
  payload: Record<string, string>;
  prev_hash: string;
  hash: string;
}

const toEntry = (row: EntryRow): AuditEntry => ({ ...camelise(row), seq: Number(row.seq) });

/** What the query API filters by (every field optional); `modules` limits a module auditor to their modules. */
export interface EntryFilter {
  action?: string;
  actorId?: string;
  targetId?: string;
  from?: Date;
  to?: Date;
  modules?: string[];
}

/**
 * The tenant's audit log (audit_entries) and its head (audit_heads): the only code touching them. Inside a
 * transaction whose tenant is set (withTenant or the consumer's), so row-level security confines every query.
 */
export class EntriesStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /**
   * The tenant's chain head, locked until the transaction ends: every append of the tenant waits here for the one
   * before it, so two appends can never take the same seq or prevHash. Made (seq 0) on the tenant's first entry.
   */
  async lockHead(tenantId: string, genesis: string): Promise<{ seq: number; hash: string }> {
    // One statement: made on the tenant's first entry, otherwise "updated" to itself, which locks the row and
    // answers its values.
    const result = await this.trx.raw<{ rows: { seq: string; hash: string }[] }>(
      `INSERT INTO audit_heads (tenant_id, seq, hash) VALUES (?, 0, ?)
       ON CONFLICT (tenant_id) DO UPDATE SET tenant_id = audit_heads.tenant_id
       RETURNING seq, hash`,
      [tenantId, genesis],
    );
    const row = result.rows[0];
    if (!row) throw new Error(`audit head of ${tenantId} not readable`);
    return { seq: Number(row.seq), hash: row.hash };
  }

  async head(tenantId: string): Promise<{ seq: number; hash: string } | undefined> {
    const row = await this.trx('audit_heads')
      .where({ tenant_id: tenantId })
      .first<{ seq: string; hash: string } | undefined>('seq', 'hash');
    return row && { seq: Number(row.seq), hash: row.hash };
  }

  /** The tenant's stored entries of these source events, by source event id. */
  async bySourceEvents(tenantId: string, sourceEventIds: string[]): Promise<Map<string, AuditEntry>> {
    if (sourceEventIds.length === 0) return new Map();
    const rows = await this.trx('audit_entries')
      .where({ tenant_id: tenantId })
      .whereIn('source_event_id', sourceEventIds)
      .select<EntryRow[]>();
    return new Map(rows.map((row) => [row.source_event_id, toEntry(row)]));
  }

  /**
   * Appends the entries (one tenant's, consecutive seqs after its head, in order) in one statement and moves the
   * head to the last (the caller holds the head's lock and has left out the source events already stored). Throws if
   * one is stored all the same, so the caller's transaction rolls back rather than fork the chain.
   */
  async appendAll(entries: AuditEntry[]): Promise<void> {
    const last = entries[entries.length - 1];
    if (!last) return;
    const inserted = await this.trx('audit_entries')
      .insert(
        entries.map((entry) => ({
          tenant_id: entry.tenantId,
          seq: entry.seq,
          id: entry.id,
          action: entry.action,
          module: entry.module,
          source: entry.source,
          target_id: entry.targetId,
          actor_id: entry.actorId,
          occurred_at: entry.occurredAt,
          recorded_at: entry.recordedAt,
          source_event_id: entry.sourceEventId,
          payload: JSON.stringify(entry.payload),
          prev_hash: entry.prevHash,
          hash: entry.hash,
        })),
      )
      .onConflict(['tenant_id', 'source_event_id'])
      .ignore()
      .returning('seq');
    if (inserted.length !== entries.length)
      throw new Error(
        `audit entries of ${last.tenantId}: ${entries.length - inserted.length} stored already`,
      );
    await this.trx('audit_heads')
      .where({ tenant_id: last.tenantId })
      .update({ seq: last.seq, hash: last.hash, updated_at: last.recordedAt });
    if (entries[0]?.seq === 1)
      await this.trx('audit_tenants').insert({ tenant_id: last.tenantId }).onConflict('tenant_id').ignore();
  }

  /** Entries after `afterSeq` in seq order, `limit` of them (verification and the export read the chain so). */
  async batch(tenantId: string, afterSeq: number, limit: number): Promise<AuditEntry[]> {
    const rows = await this.trx('audit_entries')
      .where({ tenant_id: tenantId })
      .andWhere('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .select<EntryRow[]>();
    return rows.map(toEntry);
  }

  async atSeq(tenantId: string, seq: number): Promise<AuditEntry | undefined> {
    const row = await this.trx('audit_entries')
      .where({ tenant_id: tenantId, seq })
      .first<EntryRow | undefined>();
    return row && toEntry(row);
  }

  private filtered(tenantId: string, filter: EntryFilter) {
    const query = this.trx('audit_entries').where({ tenant_id: tenantId });
    if (filter.action) query.andWhere({ action: filter.action });
    if (filter.actorId) query.andWhere({ actor_id: filter.actorId });
    if (filter.targetId) query.andWhere({ target_id: filter.targetId });
    if (filter.from) query.andWhere('occurred_at', '>=', filter.from);
    if (filter.to) query.andWhere('occurred_at', '<', filter.to);
    if (filter.modules) query.whereIn('module', filter.modules);
    return query;
  }

  /** A page of the entries matching `filter`, newest first, and how many match in all. */
  async page(
    tenantId: string,
    filter: EntryFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: AuditEntry[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.filtered(tenantId, filter).orderBy('seq', 'desc').offset(offset).limit(limit).select<EntryRow[]>(),
      this.filtered(tenantId, filter).count<{ count: string }[]>({ count: '*' }),
    ]);
    return { items: rows.map(toEntry), total: Number(count[0]?.count ?? 0) };
  }

  /** The entries matching `filter`, newest first, in pages of `limit` before `beforeSeq` (the CSV export). */
  async before(
    tenantId: string,
    filter: EntryFilter,
    beforeSeq: number,
    limit: number,
  ): Promise<AuditEntry[]> {
    const rows = await this.filtered(tenantId, filter)
      .andWhere('seq', '<', beforeSeq)
      .orderBy('seq', 'desc')
      .limit(limit)
      .select<EntryRow[]>();
    return rows.map(toEntry);
  }
}

/** The tenants with a chain (audit_tenants, no row-level security): the workers go through them. */
export class AuditTenantsStore {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async all(): Promise<string[]> {
    const rows = await this.db('audit_tenants')
      .orderBy('tenant_id')
      .select<{ tenant_id: string }[]>('tenant_id');
    return rows.map((row) => row.tenant_id);
  }

  async markChecked(tenantId: string, at: Date): Promise<void> {
    await this.db('audit_tenants').where({ tenant_id: tenantId }).update({ checked_at: at });
  }

  async markCheckpointed(tenantId: string, at: Date): Promise<void> {
    await this.db('audit_tenants').where({ tenant_id: tenantId }).update({ checkpointed_at: at });
  }
}
