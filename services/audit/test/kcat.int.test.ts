// An independent Kafka client, Debian's kcat (librdkafka), reads audit.v1 as an auditor's tooling would: the documented
// key and CloudEvents headers, the proto3 JSON value, and a chain the offline verifier accepts.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eventually, testInfra } from '@workspace/kit/testing';
import { checkpointTenant } from '../src/commands/checkpoints.js';
import { startAuditHarness, testTenant, type AuditHarness } from './support.js';

const run = promisify(execFile);

let h: AuditHarness;

beforeAll(async () => {
  h = await startAuditHarness();
});

afterAll(async () => {
  await h.stop();
});

interface KcatRecord {
  key: string;
  headers: Record<string, string>;
  raw: string;
  value: Record<string, unknown>;
}

/** audit.v1 from `since` (ms) to its current end, read by kcat: key, headers and value of each record. */
async function kcatRead(since: number): Promise<KcatRecord[]> {
  const { stdout } = await run(
    'kcat',
    [
      '-C',
      '-b',
      testInfra().kafkaBrokers,
      '-t',
      'audit.v1',
      '-o',
      `s@${since}`,
      '-e',
      '-q',
      '-f',
      '%k\t%h\t%s\n',
    ],
    { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
  );
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [key = '', headerText = '', ...value] = line.split('\t');
      const raw = value.join('\t');
      const headers = Object.fromEntries(
        headerText
          .split(',')
          .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
      ) as Record<string, string>;
      return { key, headers, raw, value: JSON.parse(raw) as Record<string, unknown> };
    });
}

describe('audit.v1 read with kcat', () => {
  it('carries each entry and checkpoint with the documented key, CloudEvents headers and proto3 JSON value', async () => {
    const since = Date.now() - 1_000;
    const tenantId = testTenant();
    const token = await h.token([], tenantId);
    for (const targetId of ['inv-export-1', 'inv-export-2'])
      expect(
        (await h.call(token, 'POST', '/client-events', { action: 'cis.export.invoices', targetId })).status,
      ).toBe(202);
    await checkpointTenant(h.definition.deps(), tenantId);

    const records = await eventually(
      async () => {
        const mine = (await kcatRead(since)).filter((record) => record.key === `${tenantId}:log`);
        return mine.length >= 3 ? mine : undefined;
      },
      60_000,
      'three audit.v1 records of the tenant read by kcat',
    );
    const [first, second, checkpoint] = records;
    for (const record of records) {
      expect(record.headers).toMatchObject({
        ce_specversion: '1.0',
        ce_source: '/workspace/audit',
        ce_tenantid: tenantId,
        'content-type': 'application/json',
      });
      expect(record.headers.ce_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(record.headers.ce_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    expect(first?.headers).toMatchObject({ ce_type: 'audit.entry.recorded', ce_subject: '1' });
    expect(first?.value).toMatchObject({
      tenantId,
      seq: '1',
      action: 'cis.export.invoices',
      module: 'cis',
      source: 'client',
      targetId: 'inv-export-1',
      prevHash: '0'.repeat(64),
    });
    expect(second?.headers).toMatchObject({ ce_type: 'audit.entry.recorded', ce_subject: '2' });
    expect(second?.value.prevHash).toBe(first?.value.hash);
    expect(checkpoint?.headers).toMatchObject({ ce_type: 'audit.checkpoint.signed', ce_subject: '2' });
    expect(checkpoint?.value).toMatchObject({
      tenantId,
      seq: '2',
      hash: second?.value.hash,
      algorithm: 'ed25519',
    });

    // What kcat printed, as the offline verifier reads it (`-f '%h\t%s\n'`).
    const dir = mkdtempSync(join(tmpdir(), 'audit-kcat-'));
    writeFileSync(join(dir, 'public.pem'), h.publicKeyPem);
    writeFileSync(
      join(dir, 'stream.txt'),
      records
        .map(
          (record) =>
            `${Object.entries(record.headers)
              .map(([k, v]) => `${k}=${v}`)
              .join(',')}\t${record.raw}`,
        )
        .join('\n'),
    );
    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        new URL('../bin/verify-audit.ts', import.meta.url).pathname,
        '--public-key',
        join(dir, 'public.pem'),
        join(dir, 'stream.txt'),
      ],
      { env: { ...process.env, NODE_OPTIONS: '' } },
    );
    expect(stdout).toContain(`${tenantId}: ok, 2 entries, head seq 2`);
  });
});
