import { recordEvent } from '@workspace/kit';
import { auditEvents } from '@workspace/proto';
import type { AuditDeps } from '../audit-deps.js';
import { signCheckpoint } from '../chain/hash.js';
import { CheckpointsStore, type StoredCheckpoint } from '../db/checkpoints.store.js';
import { AuditTenantsStore, EntriesStore } from '../db/entries.store.js';
import { AUDIT_LOG_KEY } from './append-entry.js';

export const CHECKPOINT_ALGORITHM = 'ed25519';

/** proto3 JSON of a checkpoint as audit.v1 carries it. */
export function checkpointRecord(checkpoint: StoredCheckpoint) {
  return {
    tenantId: checkpoint.tenantId,
    seq: BigInt(checkpoint.seq),
    hash: checkpoint.hash,
    signedAt: checkpoint.signedAt.toISOString(),
    algorithm: checkpoint.algorithm,
    keyId: checkpoint.keyId,
    signature: checkpoint.signature,
  };
}

/**
 * Signs the tenant's chain head as a checkpoint (docs/audit.md "Checkpoints"), stores it and publishes it on
 * audit.v1 (after the entries it covers: the same key, the same outbox), in one transaction that holds the head's
 * lock. Nothing when the head has not moved since the last checkpoint, or the tenant has no entry; undefined when no
 * signing key is configured.
 */
export async function checkpointTenant(
  deps: AuditDeps,
  tenantId: string,
): Promise<StoredCheckpoint | undefined> {
  const key = deps.checkpointKey;
  if (!key) return undefined;
  return deps.inTenant(tenantId, async (trx) => {
    const entries = new EntriesStore(trx);
    const head = await entries.head(tenantId);
    if (!head || head.seq === 0) return undefined;
    const locked = await entries.lockHead(tenantId, head.hash);
    const checkpoints = new CheckpointsStore(trx);
    const latest = await checkpoints.latest(tenantId);
    if (latest?.seq === locked.seq) return undefined;
    const signedAt = new Date(deps.clock.now().getTime());
    const checkpoint: StoredCheckpoint = {
      tenantId,
      seq: locked.seq,
      hash: locked.hash,
      signedAt,
      algorithm: CHECKPOINT_ALGORITHM,
      keyId: key.keyId,
      signature: signCheckpoint(key, { tenantId, seq: locked.seq, hash: locked.hash, signedAt }),
    };
    await checkpoints.insert(checkpoint);
    await recordEvent(trx, deps.source, auditEvents.checkpointSigned, {
      tenantId,
      aggregateId: AUDIT_LOG_KEY,
      subject: String(checkpoint.seq),
      data: checkpointRecord(checkpoint),
      occurredAt: signedAt,
    });
    return checkpoint;
  });
}

/** Every tenant's checkpoint (the checkpoint worker's run). */
export async function checkpointAll(deps: AuditDeps): Promise<StoredCheckpoint[]> {
  const tenants = new AuditTenantsStore(deps.db);
  const made: StoredCheckpoint[] = [];
  for (const tenantId of await tenants.all()) {
    const checkpoint = await checkpointTenant(deps, tenantId);
    if (checkpoint) {
      made.push(checkpoint);
      await tenants.markCheckpointed(tenantId, checkpoint.signedAt);
    }
  }
  return made;
}
