// The audit log's rules (docs/audit.md): what an entry holds, its canonical form (what its hash covers), how a
// module's event becomes an entry, and which module's entries a reader may see. Pure and browser-safe.

/** The hash before the first entry of a tenant's chain. */
export const GENESIS_HASH = '0'.repeat(64);

/** The version tag that opens every canonical form; a different layout would get a new tag. */
export const CANONICAL_VERSION = 'workspace.audit.v1';

export interface AuditEntry {
  tenantId: string;
  seq: number;
  id: string;
  action: string;
  module: string;
  source: string;
  targetId: string;
  actorId: string;
  occurredAt: Date;
  recordedAt: Date;
  sourceEventId: string;
  payload: Record<string, string>;
  prevHash: string;
  hash: string;
}

/** What a new entry is before the log places it (seq, hashes, id and recording time come from the append). */
export type EntryDraft = Pick<
  AuditEntry,
  'action' | 'module' | 'source' | 'targetId' | 'actorId' | 'occurredAt' | 'sourceEventId' | 'payload'
>;

const iso = (date: Date): string => date.toISOString();

/**
 * The entry's canonical form, the exact text its hash is the sha-256 (UTF-8) of: a JSON array (JSON.stringify, no
 * spaces) of the version tag, tenantId, seq (a number), id, action, module, source, targetId, actorId, occurredAt and
 * recordedAt (ISO 8601 UTC with milliseconds, as Date.toISOString writes them), sourceEventId, the payload as an
 * array of [key, value] pairs sorted by key (code unit order), and prevHash.
 */
export function canonicalEntry(entry: Omit<AuditEntry, 'hash'>): string {
  const payload = Object.keys(entry.payload)
    .sort()
    .map((key) => [key, entry.payload[key] ?? '']);
  return JSON.stringify([
    CANONICAL_VERSION,
    entry.tenantId,
    entry.seq,
    entry.id,
    entry.action,
    entry.module,
    entry.source,
    entry.targetId,
    entry.actorId,
    iso(entry.occurredAt),
    iso(entry.recordedAt),
    entry.sourceEventId,
    payload,
    entry.prevHash,
  ]);
}

export interface Checkpoint {
  tenantId: string;
  seq: number;
  hash: string;
  signedAt: Date;
}

/** A checkpoint's canonical form, what its Ed25519 signature covers (UTF-8): the same rules as an entry's. */
export function canonicalCheckpoint(checkpoint: Checkpoint): string {
  return JSON.stringify([
    `${CANONICAL_VERSION}.checkpoint`,
    checkpoint.tenantId,
    checkpoint.seq,
    checkpoint.hash,
    iso(checkpoint.signedAt),
  ]);
}

// ---------------------------------------------------------------------------------------------------------------
// From a module's event to an entry.

/**
 * Keys an entry's payload never keeps: names, addresses, free text a person typed (a rejection reason, a note). An
 * entry holds identifiers, counts, amounts and statuses, so a person's erasure elsewhere leaves it as it is.
 */
const PERSONAL_KEY =
  /name|email|e_mail|phone|address|title|reason|note|comment|message|description|summary|text/i;

/** The fields that become the entry's own columns rather than payload. */
const COLUMN_KEYS = new Set(['actorId', 'targetId', 'action', 'changedBy', 'actor']);

const scalar = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (Array.isArray(value)) {
    const items = value.map(scalar).filter((item): item is string => item !== undefined);
    return items.join(',');
  }
  return undefined;
};

/**
 * The payload of an entry from an event's data (proto3 JSON): its scalar fields and those of nested maps (a
 * `details` map's keys become top-level keys), lists joined with commas, every key that may carry personal details
 * left out, empty values left out; `mask` hides a tax reference or NINO pattern a value may still hold.
 */
export function entryPayload(data: unknown, mask: (text: string) => string): Record<string, string> {
  const payload: Record<string, string> = {};
  const visit = (record: Record<string, unknown>, nested: boolean) => {
    for (const [key, value] of Object.entries(record)) {
      if (PERSONAL_KEY.test(key) && !/Ids?$/.test(key)) continue;
      if (!nested && COLUMN_KEYS.has(key)) continue;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        visit(value as Record<string, unknown>, true);
        continue;
      }
      const text = scalar(value);
      if (text === undefined || text === '' || (key in payload && nested)) continue;
      payload[key] = mask(text);
    }
  };
  if (data !== null && typeof data === 'object' && !Array.isArray(data))
    visit(data as Record<string, unknown>, false);
  return payload;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** A received module event as the facts an entry needs (CloudEvents attributes and the proto3 JSON data). */
export interface ModuleEvent {
  id: string;
  type: string;
  source: string;
  time: string;
  subject?: string;
  /** The service whose topic carried it (cis for cis.events.v1). */
  module: string;
  data: unknown;
}

/**
 * The entry a module's event becomes. The action is the module's own spelling: the data's `action` when the event
 * carries one (the drive's FILE_UPLOADED), else the CloudEvents type (cis.invoice.approved). The actor is the data's
 * actorId (changedBy, actor for identity's events), else 'system'; the target the data's targetId, else the
 * event's subject.
 */
export function draftFromEvent(event: ModuleEvent, mask: (text: string) => string): EntryDraft {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const occurredAt = new Date(event.time);
  return {
    action: text(data.action) ?? event.type,
    module: event.module,
    source: event.source,
    targetId: text(data.targetId) ?? event.subject ?? '',
    actorId: text(data.actorId) ?? text(data.changedBy) ?? text(data.actor) ?? 'system',
    occurredAt: Number.isNaN(occurredAt.getTime()) ? new Date(0) : occurredAt,
    sourceEventId: event.id,
    payload: entryPayload(data, mask),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Client-side actions (workspace.md "Audit actions (client writes)", audit_logEvent).

/**
 * The actions a browser may record itself (POST /v1/client-events): what happens only in the browser, so no service
 * can publish it: exports it builds, links it copies, errors it shows. Every other action of the spec's lists is
 * recorded by the service that does it, from its own event, and a client cannot forge one.
 */
export const CLIENT_ACTIONS = {
  'cis.export.invoices': 'cis',
  'cis.export.subcontractors': 'cis',
  'cis.export.return': 'cis',
  'cis.error': 'cis',
  SHARE_LINK_COPIED: 'drive',
  DRIVE_EXPORTED: 'drive',
} as const satisfies Record<string, string>;
export type ClientAction = keyof typeof CLIENT_ACTIONS;
export const clientActions = Object.keys(CLIENT_ACTIONS) as ClientAction[];

// ---------------------------------------------------------------------------------------------------------------
// Who reads what.

/** The scope that reads every entry of the reader's tenant. */
export const AUDIT_READ_SCOPE = 'audit.read';

/** A module's own audit scope reads that module's entries. */
export const MODULE_AUDIT_SCOPES: Record<string, string> = {
  cis: 'cis.audit.read',
  drive: 'drive.audit.read',
};

/**
 * The modules whose entries a holder of `scopes` may read: 'all' with audit.read (or '*'), else the modules whose
 * audit scope it holds (possibly none).
 */
export function readableModules(scopes: ReadonlySet<string>): 'all' | string[] {
  if (scopes.has('*') || scopes.has(AUDIT_READ_SCOPE)) return 'all';
  return Object.entries(MODULE_AUDIT_SCOPES)
    .filter(([, scope]) => scopes.has(scope))
    .map(([module]) => module);
}

/** An entry as the API and the live stream show it: times as ISO 8601 strings. */
export const toEntryView = (entry: AuditEntry) => ({
  seq: entry.seq,
  id: entry.id,
  action: entry.action,
  module: entry.module,
  targetId: entry.targetId,
  actorId: entry.actorId,
  occurredAt: entry.occurredAt.toISOString(),
  recordedAt: entry.recordedAt.toISOString(),
  source: entry.source,
  sourceEventId: entry.sourceEventId,
  payload: entry.payload,
  hash: entry.hash,
  prevHash: entry.prevHash,
});
export type EntryView = ReturnType<typeof toEntryView>;

/** PostgreSQL's NOTIFY payload limit is 8000 bytes; a live entry larger than this goes as a `changed` notice. */
export const LIVE_ENTRY_MAX_BYTES = 7_000;

/** What the live stream sends for a new entry: the entry itself, or (too large) a notice to refetch. */
export function liveMessage(tenantId: string, entry: AuditEntry): string {
  const whole = JSON.stringify({ tenantId, event: 'entry', entry: toEntryView(entry) });
  if (whole.length <= LIVE_ENTRY_MAX_BYTES) return whole;
  return JSON.stringify({ tenantId, event: 'changed', entry: { seq: entry.seq, module: entry.module } });
}
