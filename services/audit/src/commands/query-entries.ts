import { problems, toCsv } from '@workspace/kit';
import type { AuditDeps } from '../audit-deps.js';
import { CheckpointsStore, type StoredCheckpoint } from '../db/checkpoints.store.js';
import { EntriesStore, type EntryFilter } from '../db/entries.store.js';
import { readableModules, type AuditEntry } from '../domain/entries.js';

/** Who reads: the tenant and the modules their scopes open (audit.read: all). */
export interface Reader {
  tenantId: string;
  scopes: ReadonlySet<string>;
}

/**
 * The filter a reader's scopes impose: audit.read reads every entry of the tenant; cis.audit.read and
 * drive.audit.read their module's. A reader with none of them is refused.
 */
export function readerScope(reader: Reader): Pick<EntryFilter, 'modules'> {
  const modules = readableModules(reader.scopes);
  if (modules === 'all') return {};
  if (modules.length === 0)
    throw problems.forbidden('This requires the audit.read permission (or a module audit permission).');
  return { modules };
}

export async function listEntries(
  deps: AuditDeps,
  reader: Reader,
  filter: Omit<EntryFilter, 'modules'>,
  page: number,
  pageSize: number,
): Promise<{ items: AuditEntry[]; total: number; page: number; pageSize: number }> {
  const scoped = { ...filter, ...readerScope(reader) };
  const found = await deps.inTenant(reader.tenantId, (trx) =>
    new EntriesStore(trx).page(reader.tenantId, scoped, (page - 1) * pageSize, pageSize),
  );
  return { ...found, page, pageSize };
}

/** The columns of GET /v1/entries.csv, in order. */
export const ENTRY_CSV_COLUMNS = [
  'Seq',
  'Occurred at',
  'Recorded at',
  'Action',
  'Module',
  'Target',
  'Actor',
  'Source',
  'Source event',
  'Payload',
  'Hash',
  'Previous hash',
] as const;

/** The most rows one CSV export holds (newest first); the export says so in its file name when it stopped there. */
export const ENTRY_CSV_MAX_ROWS = 100_000;

export async function entriesCsv(
  deps: AuditDeps,
  reader: Reader,
  filter: Omit<EntryFilter, 'modules'>,
): Promise<{ filename: string; content: string }> {
  const scoped = { ...filter, ...readerScope(reader) };
  const rows: unknown[][] = [];
  let before = Number.MAX_SAFE_INTEGER;
  while (rows.length < ENTRY_CSV_MAX_ROWS) {
    const batch = await deps.inTenant(reader.tenantId, (trx) =>
      new EntriesStore(trx).before(reader.tenantId, scoped, before, 1_000),
    );
    for (const entry of batch)
      rows.push([
        entry.seq,
        entry.occurredAt,
        entry.recordedAt,
        entry.action,
        entry.module,
        entry.targetId,
        entry.actorId,
        entry.source,
        entry.sourceEventId,
        Object.entries(entry.payload)
          .map(([key, value]) => `${key}=${value}`)
          .join('; '),
        entry.hash,
        entry.prevHash,
      ]);
    const last = batch.at(-1);
    if (!last || batch.length < 1_000) break;
    before = last.seq;
  }
  const day = deps.clock.now().toISOString().slice(0, 10);
  return {
    filename: `audit-${day}.csv`,
    content: toCsv(ENTRY_CSV_COLUMNS, rows.slice(0, ENTRY_CSV_MAX_ROWS)),
  };
}

/** One line of GET /v1/export (NDJSON): an entry or a checkpoint, in the order a verifier checks them. */
export type ExportLine =
  { kind: 'entry'; entry: AuditEntry } | { kind: 'checkpoint'; checkpoint: StoredCheckpoint };

/**
 * The tenant's whole chain for the offline verifier, in seq order, each checkpoint after the entry it covers.
 * Only audit.read exports: a module auditor's view is not a chain (it has holes by design).
 */
export async function* exportChain(deps: AuditDeps, tenantId: string): AsyncGenerator<ExportLine> {
  const checkpoints = await deps.inTenant(tenantId, (trx) => new CheckpointsStore(trx).all(tenantId));
  let next = 0;
  let after = 0;
  for (;;) {
    const batch = await deps.inTenant(tenantId, (trx) => new EntriesStore(trx).batch(tenantId, after, 1_000));
    for (const entry of batch) {
      yield { kind: 'entry', entry };
      while (next < checkpoints.length && (checkpoints[next]?.seq ?? Infinity) <= entry.seq)
        yield { kind: 'checkpoint', checkpoint: checkpoints[next++] as StoredCheckpoint };
    }
    const last = batch.at(-1);
    if (!last || batch.length < 1_000) break;
    after = last.seq;
  }
  while (next < checkpoints.length)
    yield { kind: 'checkpoint', checkpoint: checkpoints[next++] as StoredCheckpoint };
}
