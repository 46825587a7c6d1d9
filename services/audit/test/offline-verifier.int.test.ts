import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eventually } from '@workspace/kit/testing';
import { entryHash } from '../src/chain/hash.js';
import { checkpointTenant } from '../src/commands/checkpoints.js';
import { checkpointWorker } from '../src/workers/chain.workers.js';
import {
  AuditTopicReader,
  startAuditHarness,
  testCheckpointKey,
  testTenant,
  type AuditHarness,
} from './support.js';

const run = promisify(execFile);
const VERIFIER = new URL('../bin/verify-audit.ts', import.meta.url).pathname;

let h: AuditHarness;
let reader: AuditTopicReader;
let dir: string;
let keyFile: string;

beforeAll(async () => {
  h = await startAuditHarness();
  reader = await AuditTopicReader.start();
  dir = mkdtempSync(join(tmpdir(), 'audit-verify-'));
  keyFile = join(dir, 'public.pem');
  writeFileSync(keyFile, h.publicKeyPem);
});

afterAll(async () => {
  await reader.stop();
  await h.stop();
});

/** Runs the verifier script as an auditor would (node, no service), on `lines`. */
async function verifyOffline(lines: string[], key = keyFile): Promise<{ code: number; out: string }> {
  const file = join(dir, `input-${Math.random().toString(36).slice(2)}.ndjson`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', VERIFIER, '--public-key', key, file], {
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

/** A tenant with 4 entries, a checkpoint at seq 4, then 2 entries more; its export's lines. */
async function exportedTenant(): Promise<{ tenantId: string; lines: string[] }> {
  const tenantId = testTenant();
  const token = await h.token([], tenantId);
  const record = async (i: number) => {
    expect(
      (await h.call(token, 'POST', '/client-events', { action: 'cis.export.return', targetId: `r-${i}` }))
        .status,
    ).toBe(202);
  };
  for (let i = 1; i <= 4; i++) await record(i);
  expect(await checkpointTenant(h.definition.deps(), tenantId)).toMatchObject({ seq: 4 });
  for (let i = 5; i <= 6; i++) await record(i);
  const exported = await h.call(await h.token(['audit.read'], tenantId), 'GET', '/export');
  expect(exported.status).toBe(200);
  expect(exported.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
  return { tenantId, lines: exported.text.trimEnd().split('\n') };
}

const kinds = (lines: string[]) => lines.map((line) => JSON.parse(line) as { kind: string; seq: number });

describe('the checkpoint key', () => {
  it('is published at GET /v1/checkpoints/public-key', async () => {
    const answer = await h.call(undefined, 'GET', '/checkpoints/public-key');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ algorithm: 'ed25519', publicKeyPem: h.publicKeyPem });
    expect(answer.body.keyId).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('the checkpoint worker', () => {
  it('signs each tenant’s moved head on its schedule, once per head', async () => {
    const tenantId = testTenant();
    const token = await h.token([], tenantId);
    expect(
      (await h.call(token, 'POST', '/client-events', { action: 'cis.error', targetId: 'page-1' })).status,
    ).toBe(202);
    const deps = h.definition.deps();
    const worker = checkpointWorker({
      ...deps,
      config: { ...deps.config, AUDIT_CHECKPOINT_INTERVAL_MS: 200 },
    });
    worker.start();
    try {
      const signed = await eventually(
        async () => {
          const rows = await h.adminSql<{ seq: number; signature: string }>(
            'SELECT seq, signature FROM audit_checkpoints WHERE tenant_id = $1',
            [tenantId],
          );
          return rows.length > 0 ? rows : undefined;
        },
        30_000,
        'a checkpoint of the tenant',
      );
      expect(signed).toEqual([{ seq: 1, signature: expect.any(String) }]);
      const [checked] = await h.adminSql<{ n: number }>(
        'SELECT count(*)::int AS n FROM audit_tenants WHERE tenant_id = $1 AND checkpointed_at IS NOT NULL',
        [tenantId],
      );
      expect(checked?.n).toBe(1);
    } finally {
      await worker.stop();
    }
    // The head did not move: no second checkpoint of seq 1.
    expect(await checkpointTenant(deps, tenantId)).toBeUndefined();
  });
});

describe('the offline verifier (services/audit/bin/verify-audit.ts)', () => {
  it('accepts an intact export, its checkpoint after the entry it covers', async () => {
    const { tenantId, lines } = await exportedTenant();
    expect(kinds(lines).map((line) => `${line.kind}:${line.seq}`)).toEqual([
      'entry:1',
      'entry:2',
      'entry:3',
      'entry:4',
      'checkpoint:4',
      'entry:5',
      'entry:6',
    ]);
    const result = await verifyOffline(lines);
    expect(result).toEqual({
      code: 0,
      out: expect.stringContaining(`${tenantId}: ok, 6 entries, head seq 6`),
    });
    expect(result.out).toContain('last checkpoint seq 4');
  });

  it('finds a truncated tail against the last checkpoint', async () => {
    const { tenantId, lines } = await exportedTenant();
    // Entries 3 onwards removed, the checkpoint (seq 4) kept: the chain alone would hold.
    const truncated = lines.filter((line) => {
      const parsed = JSON.parse(line) as { kind: string; seq: number };
      return parsed.kind === 'checkpoint' || parsed.seq < 3;
    });
    const result = await verifyOffline(truncated);
    expect(result.code).toBe(1);
    expect(result.out).toContain(`${tenantId}: BROKEN at seq 3: truncated`);
  });

  it('finds a rewritten tail (hashes recomputed) against the last checkpoint', async () => {
    const { tenantId, lines } = await exportedTenant();
    let prevHash = '';
    const rewritten = lines.map((line) => {
      const parsed = JSON.parse(line) as Record<string, unknown> & {
        kind: string;
        seq: number;
        hash: string;
      };
      if (parsed.kind !== 'entry') return line;
      if (parsed.seq < 3) {
        prevHash = parsed.hash;
        return line;
      }
      const entry = {
        ...(parsed as never as Parameters<typeof entryHash>[0]),
        actorId: parsed.seq === 3 ? 'forger' : (parsed.actorId as string),
        prevHash,
        occurredAt: new Date(parsed.occurredAt as string),
        recordedAt: new Date(parsed.recordedAt as string),
      };
      const hash = entryHash(entry);
      prevHash = hash;
      return JSON.stringify({ ...parsed, actorId: entry.actorId, prevHash: entry.prevHash, hash });
    });
    const result = await verifyOffline(rewritten);
    expect(result.code).toBe(1);
    expect(result.out).toContain(`${tenantId}: BROKEN at seq 4: checkpoint_mismatch`);
  });

  it('finds an edited entry, and a checkpoint another key signed', async () => {
    const { tenantId, lines } = await exportedTenant();
    const edited = lines.map((line) => line.replace('"targetId":"r-2"', '"targetId":"r-X"'));
    expect((await verifyOffline(edited)).out).toContain(`${tenantId}: BROKEN at seq 2: hash_mismatch`);
    const otherKey = join(dir, 'other.pem');
    writeFileSync(otherKey, testCheckpointKey().publicKeyPem);
    const wrongKey = await verifyOffline(lines, otherKey);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.out).toContain(`${tenantId}: BROKEN at seq 4: bad_signature`);
  });

  it('verifies the records read from audit.v1, checkpoints among them', async () => {
    const { tenantId } = await exportedTenant();
    const records = await eventually(
      async () => {
        const found = await reader.publishedBy(h, tenantId);
        return found.length >= 7 ? found : undefined;
      },
      30_000,
      'the tenant’s audit.v1 records',
    );
    expect(records.map((record) => `${record.headers.ce_type}:${record.headers.ce_subject}`)).toEqual([
      'audit.entry.recorded:1',
      'audit.entry.recorded:2',
      'audit.entry.recorded:3',
      'audit.entry.recorded:4',
      'audit.checkpoint.signed:4',
      'audit.entry.recorded:5',
      'audit.entry.recorded:6',
    ]);
    const lines = records.map((record) =>
      JSON.stringify({ type: record.headers.ce_type, data: record.value }),
    );
    const result = await verifyOffline(lines);
    expect(result).toEqual({
      code: 0,
      out: expect.stringContaining(`${tenantId}: ok, 6 entries, head seq 6`),
    });
    const missing = await verifyOffline(lines.filter((_, i) => i !== 5));
    expect(missing.out).toContain(`${tenantId}: BROKEN at seq 5: gap`);
  });
});
