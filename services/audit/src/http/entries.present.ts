import type { StoredCheckpoint } from '../db/checkpoints.store.js';

export { toEntryView as presentEntry } from '../domain/entries.js';

/** A checkpoint as the export writes it. */
export const presentCheckpoint = (checkpoint: StoredCheckpoint) => ({
  tenantId: checkpoint.tenantId,
  seq: checkpoint.seq,
  hash: checkpoint.hash,
  signedAt: checkpoint.signedAt.toISOString(),
  algorithm: checkpoint.algorithm,
  keyId: checkpoint.keyId,
  signature: checkpoint.signature,
});
