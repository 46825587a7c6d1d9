import { eventually } from '@workspace/kit/testing';
import pg from 'pg';
import { entryHash } from '../src/chain/hash.js';
import { checkpointTenant } from '../src/commands/checkpoints.js';
import { checkAllChains } from '../src/commands/verify-chain.js';
import type { AuditEntry } from '../src/domain/entries.js';
import { chainCheckMetrics, chainCheckWorker } from '../src/workers/chain.workers.js';
import { startAuditHarness, testTenant, type AuditHarness } from './support.js';

let h: AuditHarness;

beforeAll(async () => {
  h = await startAuditHarness();
});

afterAll(async () => {
  await h.stop();
});

/** A tenant with `count` entries (client actions, each its own append). */
async function tenantWith(count: number): Promise<string> {
  const tenantId = testTenant();
  const token = await h.token([], tenantId);
  for (let i = 1; i <= count; i++) {
    const answer = await h.call(token, 'POST', '/client-events', {
      action: 'cis.export.invoices',
      targetId: `e-${i}`,
    });
    expect(answer.status).toBe(202);
  }
  return tenantId;
}

const verify = async (tenantId: string) => {
  const answer = await h.call(await h.token(['audit.read'], tenantId), 'POST', '/verify');
  expect(answer.status).toBe(200);
  return answer.body as { ok: boolean; entries: number; firstBreak?: { seq: number; reason: string } };
};

/** SQL as the superuser with triggers off: what someone with the database's keys could do behind the service. */
const tamper = (sql: string) => h.adminSql(`SET session_replication_role = replica; ${sql}`);

const entryAt = async (tenantId: string, seq: number): Promise<AuditEntry> => {
  const [row] = await h.adminSql<Record<string, unknown>>(
    'SELECT * FROM audit_entries WHERE tenant_id = $1 AND seq = $2',
    [tenantId, seq],
  );
  if (!row) throw new Error(`no entry ${seq}`);
  return {
    tenantId,
    seq,
    id: row.id as string,
    action: row.action as string,
    module: row.module as string,
    source: row.source as string,
    targetId: row.target_id as string,
    actorId: row.actor_id as string,
    occurredAt: row.occurred_at as Date,
    recordedAt: row.recorded_at as Date,
    sourceEventId: row.source_event_id as string,
    payload: row.payload as Record<string, string>,
    prevHash: row.prev_hash as string,
    hash: row.hash as string,
  };
};

describe('verify (POST /v1/verify)', () => {
  it('finds an intact chain intact', async () => {
    const tenantId = await tenantWith(5);
    expect(await verify(tenantId)).toMatchObject({ ok: true, entries: 5, head: { seq: 5 } });
  });

  it('names an edited entry: hash_mismatch at its seq', async () => {
    const tenantId = await tenantWith(5);
    await tamper(
      `UPDATE audit_entries SET actor_id = 'someone-else' WHERE tenant_id = '${tenantId}' AND seq = 3`,
    );
    expect(await verify(tenantId)).toMatchObject({
      ok: false,
      firstBreak: { seq: 3, reason: 'hash_mismatch' },
    });
  });

  it('names a deleted entry: gap at its seq', async () => {
    const tenantId = await tenantWith(5);
    await tamper(`DELETE FROM audit_entries WHERE tenant_id = '${tenantId}' AND seq = 2`);
    expect(await verify(tenantId)).toMatchObject({ ok: false, firstBreak: { seq: 2, reason: 'gap' } });
  });

  it('names reordered entries: reordered at the first moved', async () => {
    const tenantId = await tenantWith(5);
    await tamper(`
      UPDATE audit_entries SET seq = -3 WHERE tenant_id = '${tenantId}' AND seq = 3;
      UPDATE audit_entries SET seq = 3 WHERE tenant_id = '${tenantId}' AND seq = 4;
      UPDATE audit_entries SET seq = 4 WHERE tenant_id = '${tenantId}' AND seq = -3;`);
    expect(await verify(tenantId)).toMatchObject({ ok: false, firstBreak: { seq: 3, reason: 'reordered' } });
  });

  it('names a deleted tail against the head: truncated', async () => {
    const tenantId = await tenantWith(5);
    await tamper(`DELETE FROM audit_entries WHERE tenant_id = '${tenantId}' AND seq >= 4`);
    expect(await verify(tenantId)).toMatchObject({ ok: false, firstBreak: { seq: 4, reason: 'truncated' } });
  });

  it('names a rewritten tail (hashes recomputed, head moved) against the last checkpoint', async () => {
    const tenantId = await tenantWith(4);
    const checkpoint = await checkpointTenant(h.definition.deps(), tenantId);
    expect(checkpoint).toMatchObject({ seq: 4, algorithm: 'ed25519' });
    // Rewrite seq 4 consistently: its content and hash, and the head; the chain alone now holds.
    const original = await entryAt(tenantId, 4);
    const forged = { ...original, actorId: 'forger' };
    const hash = entryHash(forged);
    await tamper(`
      UPDATE audit_entries SET actor_id = 'forger', hash = '${hash}' WHERE tenant_id = '${tenantId}' AND seq = 4;
      UPDATE audit_heads SET hash = '${hash}' WHERE tenant_id = '${tenantId}';`);
    expect(await verify(tenantId)).toMatchObject({
      ok: false,
      firstBreak: { seq: 4, reason: 'checkpoint_mismatch' },
    });
  });

  it('is for the tenant’s auditor only', async () => {
    const tenantId = await tenantWith(1);
    const answer = await h.call(await h.token(['cis.audit.read'], tenantId), 'POST', '/verify');
    expect(answer.status).toBe(403);
  });
});

describe('the log is append-only for the service', () => {
  it('refuses an update or delete of an entry by the service’s own role', async () => {
    const tenantId = await tenantWith(1);
    const client = new pg.Client({ connectionString: h.config.DATABASE_URL });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query("SELECT set_config('app.tenant_id', $1, true)", [tenantId]);
      await expect(client.query("UPDATE audit.audit_entries SET actor_id = 'x'")).rejects.toThrow(
        'audit entries are append-only (UPDATE refused)',
      );
      await client.query('ROLLBACK');
      await client.query('BEGIN');
      await client.query("SELECT set_config('app.tenant_id', $1, true)", [tenantId]);
      await expect(client.query('DELETE FROM audit.audit_entries')).rejects.toThrow(
        'audit entries are append-only (DELETE refused)',
      );
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
    expect(await verify(tenantId)).toMatchObject({ ok: true, entries: 1 });
  });
});

describe('the scheduled chain check', () => {
  it('raises audit_chain_broken for a broken tenant and logs an error line naming the entry', async () => {
    const intact = await tenantWith(2);
    const broken = await tenantWith(3);
    await tamper(`UPDATE audit_entries SET target_id = 'moved' WHERE tenant_id = '${broken}' AND seq = 2`);
    const deps = h.definition.deps();
    const lines: { fields: Record<string, unknown>; message: string }[] = [];
    const logger = Object.assign(Object.create(deps.logger) as typeof deps.logger, {
      error: (fields: Record<string, unknown>, message: string) => {
        lines.push({ fields, message });
      },
    });
    const metrics = chainCheckMetrics(h.audit.deps.metrics);
    await checkAllChains({ ...deps, logger }, metrics);
    const scrape = await h.audit.deps.metrics.metrics();
    expect(scrape).toContain(`audit_chain_broken{tenant="${broken}",service="audit"} 1`);
    expect(scrape).toContain(`audit_chain_broken{tenant="${intact}",service="audit"} 0`);
    expect(lines).toContainEqual({
      fields: expect.objectContaining({ tenantId: broken, seq: 2, reason: 'hash_mismatch' }),
      message: 'audit chain broken',
    });
  });

  it('runs on its schedule', async () => {
    const broken = await tenantWith(2);
    await tamper(`DELETE FROM audit_entries WHERE tenant_id = '${broken}' AND seq = 1`);
    const deps = h.definition.deps();
    const worker = chainCheckWorker(
      { ...deps, config: { ...deps.config, AUDIT_CHAIN_CHECK_INTERVAL_MS: 200 } },
      chainCheckMetrics(h.audit.deps.metrics),
    );
    worker.start();
    try {
      await eventually(
        async () =>
          (await h.audit.deps.metrics.metrics()).includes(
            `audit_chain_broken{tenant="${broken}",service="audit"} 1`,
          ),
        30_000,
        'the scheduled check to flag the tenant',
      );
    } finally {
      await worker.stop();
    }
  });
});
