// The offline verifier's reading (bin/verify-audit.ts, docs/audit.md "Verifying offline"): an export of
// GET /v1/export (NDJSON) or records read from audit.v1, checked per tenant against the chain and each tenant's last
// checkpoint, with the published public key. Nothing here talks to the service.
import type { AuditEntry, Checkpoint } from '../domain/entries.js';
import { checkpointSignatureValid } from './hash.js';
import { ChainWalker, type ChainBreak } from './verify.js';

export interface SignedCheckpoint extends Checkpoint {
  keyId: string;
  signature: string;
}

export type AuditLine =
  { kind: 'entry'; entry: AuditEntry } | { kind: 'checkpoint'; checkpoint: SignedCheckpoint };

const str = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'bigint'
      ? String(value)
      : '';

function entryFrom(data: Record<string, unknown>): AuditEntry {
  return {
    tenantId: str(data.tenantId),
    seq: Number(data.seq),
    id: str(data.id),
    action: str(data.action),
    module: str(data.module),
    source: str(data.source),
    targetId: str(data.targetId),
    actorId: str(data.actorId),
    occurredAt: new Date(str(data.occurredAt)),
    recordedAt: new Date(str(data.recordedAt)),
    sourceEventId: str(data.sourceEventId),
    payload: (data.payload ?? {}) as Record<string, string>,
    prevHash: str(data.prevHash),
    hash: str(data.hash),
  };
}

function checkpointFrom(data: Record<string, unknown>): SignedCheckpoint {
  return {
    tenantId: str(data.tenantId),
    seq: Number(data.seq),
    hash: str(data.hash),
    signedAt: new Date(str(data.signedAt)),
    keyId: str(data.keyId),
    signature: str(data.signature),
  };
}

/** kcat's `-f '%h\t%s\n'`: headers as `name=value` pairs joined by commas, a tab, then the value. */
function parseKcatLine(line: string): { type: string; data: Record<string, unknown> } | undefined {
  const tab = line.indexOf('\t');
  if (tab < 0) return undefined;
  const headers = Object.fromEntries(
    line
      .slice(0, tab)
      .split(',')
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  ) as Record<string, string>;
  return { type: headers.ce_type ?? '', data: JSON.parse(line.slice(tab + 1)) as Record<string, unknown> };
}

/**
 * One line of input as an entry or a checkpoint: an export line ({"kind":"entry",...} or {"kind":"checkpoint",...}),
 * an audit.v1 record as {"type": ce_type, "data": value}, or kcat's `%h<TAB>%s`. Undefined for a blank line.
 */
export function parseAuditLine(line: string): AuditLine | undefined {
  const text = line.trim();
  if (text === '') return undefined;
  let type: string;
  let data: Record<string, unknown>;
  if (text.startsWith('{')) {
    const json = JSON.parse(text) as Record<string, unknown>;
    if (json.kind === 'entry' || json.kind === 'checkpoint') {
      type = json.kind === 'entry' ? 'audit.entry.recorded' : 'audit.checkpoint.signed';
      data = json;
    } else {
      type = str(json.type);
      data = (json.data ?? {}) as Record<string, unknown>;
    }
  } else {
    const record = parseKcatLine(line.replace(/\r?\n$/, ''));
    if (!record) throw new Error(`not an audit record: ${text.slice(0, 60)}`);
    ({ type, data } = record);
  }
  if (type === 'audit.entry.recorded') return { kind: 'entry', entry: entryFrom(data) };
  if (type === 'audit.checkpoint.signed') return { kind: 'checkpoint', checkpoint: checkpointFrom(data) };
  throw new Error(`not an audit record type: ${type}`);
}

export interface TenantReport {
  tenantId: string;
  entries: number;
  head: { seq: number; hash: string };
  lastCheckpoint: { seq: number; signedAt: string } | undefined;
  firstBreak: ChainBreak | undefined;
}

/**
 * Checks every tenant's chain in the lines and each tenant's checkpoints: every signature against the public key,
 * and the last checkpoint against the chain (an entry missing at its seq: a truncated tail; another hash there: a
 * rewritten one).
 */
export function verifyAuditLines(lines: Iterable<AuditLine>, publicKeyPem: string): TenantReport[] {
  const tenants = new Map<string, { walker: ChainWalker; checkpoints: SignedCheckpoint[] }>();
  const of = (tenantId: string) => {
    let tenant = tenants.get(tenantId);
    if (!tenant) {
      tenant = { walker: new ChainWalker(), checkpoints: [] };
      tenants.set(tenantId, tenant);
    }
    return tenant;
  };
  for (const line of lines) {
    if (line.kind === 'entry') of(line.entry.tenantId).walker.push(line.entry);
    else of(line.checkpoint.tenantId).checkpoints.push(line.checkpoint);
  }
  return [...tenants.entries()].map(([tenantId, { walker, checkpoints }]) => {
    for (const checkpoint of checkpoints) {
      if (!checkpointSignatureValid(publicKeyPem, checkpoint, checkpoint.signature))
        walker.report({
          seq: checkpoint.seq,
          reason: 'bad_signature',
          detail: `the checkpoint of ${checkpoint.signedAt.toISOString()} does not verify with the public key (key id ${checkpoint.keyId})`,
        });
    }
    const last = checkpoints.reduce<SignedCheckpoint | undefined>(
      (latest, checkpoint) => (!latest || checkpoint.seq > latest.seq ? checkpoint : latest),
      undefined,
    );
    if (last) {
      const stored = walker.hashAt(last.seq);
      if (stored === undefined && walker.result() === undefined)
        walker.report({
          seq: walker.head.seq + 1,
          reason: 'truncated',
          detail: `the chain ends at seq ${walker.head.seq}; the checkpoint of ${last.signedAt.toISOString()} covers seq ${last.seq}`,
        });
      else if (stored !== undefined && stored !== last.hash)
        walker.report({
          seq: last.seq,
          reason: 'checkpoint_mismatch',
          detail: `the entry at seq ${last.seq} is not the one the checkpoint of ${last.signedAt.toISOString()} signed`,
        });
    }
    return {
      tenantId,
      entries: walker.count,
      head: walker.head,
      lastCheckpoint: last && { seq: last.seq, signedAt: last.signedAt.toISOString() },
      firstBreak: walker.result(),
    };
  });
}
