import type { Counter, Gauge } from 'prom-client';
import type { AuditDeps } from '../audit-deps.js';
import { checkpointSignatureValid } from '../chain/hash.js';
import { ChainWalker, type ChainBreak } from '../chain/verify.js';
import { CheckpointsStore } from '../db/checkpoints.store.js';
import { AuditTenantsStore, EntriesStore } from '../db/entries.store.js';

const BATCH = 1_000;

export interface VerifyResult {
  tenantId: string;
  ok: boolean;
  /** Entries read. */
  entries: number;
  /** The tenant's head as stored (seq 0 for a tenant without entries). */
  head: { seq: number; hash: string };
  /** The latest signed checkpoint, when there is one. */
  checkpoint: { seq: number; hash: string; signedAt: string } | undefined;
  /** The first broken link, when the chain does not hold. */
  firstBreak: ChainBreak | undefined;
  checkedAt: string;
}

/**
 * Verifies a tenant's chain (docs/audit.md "Verification"): each entry in seq order against its hash and the one
 * before it, the head against the last entry (a deleted tail), and the latest checkpoint against the entry at its seq
 * and its signature. Reads in its own transactions of the tenant, a batch at a time.
 */
export async function verifyChain(deps: AuditDeps, tenantId: string): Promise<VerifyResult> {
  const walker = new ChainWalker();
  let after = 0;
  for (;;) {
    const batch = await deps.inTenant(tenantId, (trx) => new EntriesStore(trx).batch(tenantId, after, BATCH));
    for (const entry of batch) walker.push(entry);
    const last = batch.at(-1);
    if (!last || batch.length < BATCH) break;
    after = last.seq;
  }
  const { head, checkpoint } = await deps.inTenant(tenantId, async (trx) => ({
    head: (await new EntriesStore(trx).head(tenantId)) ?? { seq: 0, hash: '' },
    checkpoint: await new CheckpointsStore(trx).latest(tenantId),
  }));
  const reached = walker.head;
  if (head.seq > 0 && walker.result() === undefined) {
    if (reached.seq < head.seq) {
      walker.report({
        seq: reached.seq + 1,
        reason: 'truncated',
        detail: `the chain ends at seq ${reached.seq}; its head is seq ${head.seq}`,
      });
    } else if (reached.seq === head.seq && reached.hash !== head.hash) {
      walker.report({
        seq: head.seq,
        reason: 'hash_mismatch',
        detail: 'the last entry is not the recorded head',
      });
    }
  }
  if (checkpoint) {
    const signed = walker.hashAt(checkpoint.seq);
    if (signed === undefined && walker.result() === undefined) {
      walker.report({
        seq: checkpoint.seq,
        reason: 'truncated',
        detail: `the checkpoint of ${checkpoint.signedAt.toISOString()} covers seq ${checkpoint.seq}, which is gone`,
      });
    } else if (signed !== undefined && signed !== checkpoint.hash) {
      walker.report({
        seq: checkpoint.seq,
        reason: 'checkpoint_mismatch',
        detail: `the entry at seq ${checkpoint.seq} is not the one the checkpoint of ${checkpoint.signedAt.toISOString()} signed`,
      });
    }
    if (deps.checkpointKey && checkpoint.keyId === deps.checkpointKey.keyId) {
      const valid = checkpointSignatureValid(
        deps.checkpointKey.publicKeyPem,
        { tenantId, seq: checkpoint.seq, hash: checkpoint.hash, signedAt: checkpoint.signedAt },
        checkpoint.signature,
      );
      if (!valid)
        walker.report({
          seq: checkpoint.seq,
          reason: 'bad_signature',
          detail: 'the checkpoint signature does not verify',
        });
    }
  }
  const firstBreak = walker.result();
  return {
    tenantId,
    ok: firstBreak === undefined,
    entries: walker.count,
    head,
    checkpoint: checkpoint && {
      seq: checkpoint.seq,
      hash: checkpoint.hash,
      signedAt: checkpoint.signedAt.toISOString(),
    },
    firstBreak,
    checkedAt: deps.clock.now().toISOString(),
  };
}

export interface ChainCheckMetrics {
  broken: Gauge<'tenant'>;
  checks: Counter<'result'>;
}

/**
 * The scheduled check: every tenant's chain; a break sets `audit_chain_broken{tenant}` to 1 and logs an error line
 * naming the tenant, the seq and the reason (docs/runbook.md "Audit chain break"); a chain that holds sets it to 0.
 */
export async function checkAllChains(deps: AuditDeps, metrics: ChainCheckMetrics): Promise<VerifyResult[]> {
  const tenants = new AuditTenantsStore(deps.db);
  const results: VerifyResult[] = [];
  for (const tenantId of await tenants.all()) {
    const result = await verifyChain(deps, tenantId);
    results.push(result);
    metrics.broken.labels({ tenant: tenantId }).set(result.ok ? 0 : 1);
    metrics.checks.labels({ result: result.ok ? 'ok' : 'broken' }).inc();
    if (result.firstBreak) {
      deps.logger.error(
        {
          tenantId,
          seq: result.firstBreak.seq,
          reason: result.firstBreak.reason,
          detail: result.firstBreak.detail,
        },
        'audit chain broken',
      );
    }
    await tenants.markChecked(tenantId, deps.clock.now());
  }
  return results;
}
