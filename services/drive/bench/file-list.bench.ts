// drive benchmark (`make bench`): the file list of one drive holding 100,000 files, beside the bare SQL page
// measured in the same run. Printed, never asserted: a missed target is "not met" and the process exits 0; a run
// that cannot complete (infrastructure missing, non-2xx answers) exits 1.
// Run alone (with the infrastructure env):
//   node --conditions=development --import tsx services/drive/bench/file-list.bench.ts
//
// What runs: in this process, identity with the dev IdP and the drive (startDriveHarness: real PostgreSQL, Kafka
// and MinIO, a fresh database), and the load: one connection, requests one after another.
//
//   1. seed: one tenant ('demo'), one shared drive with one library, 100,000 files (names from ten words, twenty
//      owners, 8% shared, 2% restricted, created over a year), bulk-inserted by the drive's runtime role in tenant
//      transactions (json_populate_recordset, 5,000 rows per statement); then VACUUM ANALYZE. Timed, no target.
//   2. GET /v1/files as a member of the drive (only files they may open: restricted ones are hidden): the first page
//      (50, created descending), a filtered and searched page (visibility=shared&q=plan) and a page sorted by name;
//      p50/p95 beside the bare page `SELECT * FROM files WHERE drive_id = $1 AND status = 'active' ORDER BY
//      created_at DESC, id DESC LIMIT 50` in a tenant transaction (the same pool). Measured in rounds: each round runs
//      the bare page, the three requests and the [info] pieces once each, in turn, so a change in the machine's load
//      falls on the baseline and the route alike. [info] rows: the route's database work in process with the access
//      cache (ADR 0050) and without it (the access sets read every time, as before), the first page through HTTP
//      without it (the route before ADR 0050, switched per request in the same rounds), GET /v1/me/abilities (the
//      request path without the database: HTTP, token, region check), and the pager's uncached counts (the total is
//      kept per tenant until a file changes: commands/file-list.ts).
//
//   BENCH_DRIVE_FILES      files seeded (default 100000; at least 1000)
//   BENCH_DRIVE_REQUESTS   measured rounds (default 400; 40 more to warm up)
//   BENCH_DRIVE_EXPLAIN    1: print the plans (EXPLAIN ANALYZE, BUFFERS) of the first page's statements and the bare page
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { Knex } from '@workspace/kit';
import { envInt } from '../../kit/bench/env.js';
import { fmt, printTable } from '../../kit/bench/report.js';
import { fileReader } from '../src/commands/file-list.js';
import { FileStore } from '../src/db/files.store.js';
import { RECENT_FILES_LIMIT } from '../src/domain/index.js';
import type { DriveDeps } from '../src/drive-deps.js';
import { READER_SCOPES, seedDrive, seedLibrary } from '../test/files.fixtures.js';
import { startDriveHarness } from '../test/support.js';

const FILES = envInt('BENCH_DRIVE_FILES', 100_000, 1_000);
const REQUESTS = envInt('BENCH_DRIVE_REQUESTS', 400, 20);
const WARMUP = 40;
/** The uncached counts are [info] rows: a few runs are enough. */
const COUNT_RUNS = 20;
const SEED_CHUNK = 5_000;
const TENANT = 'demo';
const MEMBER = '00000000-0000-4000-8000-00000000be0c';
const TARGETS = { p95Ms: 50, ratio: 3 };
const WORDS = [
  'Site plan',
  'RAMS',
  'Invoice',
  'Drawing',
  'Photo log',
  'Contract',
  'Insurance',
  'Method',
  'Survey',
  'Minutes',
];
const EXTENSIONS: [string, string, string][] = [
  ['pdf', 'application/pdf', 'pdf'],
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'document'],
  ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'spreadsheet'],
  ['jpg', 'image/jpeg', 'image'],
  ['txt', 'text/plain', 'document'],
];
const OWNERS = Array.from({ length: 20 }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  name: ['Alice Archer', 'Ben Northwood', 'Chloe Mason', 'Dev Patel', 'Erin Walsh'][i % 5] ?? 'Owner',
}));

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN);

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** `work` WARMUP times, then `times` times measured: p50 and p95 in ms. */
async function measure(work: () => Promise<void>, times = REQUESTS): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < Math.min(WARMUP, times); i += 1) await work();
  const latencies: number[] = [];
  for (let i = 0; i < times; i += 1) latencies.push((await timed(work)).ms);
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}

/**
 * `rounds` rounds (after WARMUP untimed ones), each running every piece of work once, in turn: p50 and p95 in ms
 * per name.
 */
async function measureRounds(
  works: { name: string; work: () => Promise<void> }[],
  rounds = REQUESTS,
): Promise<Map<string, { p50: number; p95: number }>> {
  for (let i = 0; i < WARMUP; i += 1) for (const { work } of works) await work();
  const latencies = new Map<string, number[]>(works.map(({ name }) => [name, []]));
  for (let i = 0; i < rounds; i += 1) {
    for (const { name, work } of works) latencies.get(name)?.push((await timed(work)).ms);
  }
  return new Map(
    [...latencies].map(([name, values]) => {
      values.sort((a, b) => a - b);
      return [name, { p50: percentile(values, 50), p95: percentile(values, 95) }];
    }),
  );
}

/** BENCH_DRIVE_EXPLAIN=1: the plans (EXPLAIN ANALYZE, BUFFERS) of the list's statements for the first page. */
async function explainFirstPage(deps: DriveDeps, driveId: string): Promise<void> {
  const caller = { userId: MEMBER, scopes: new Set(READER_SCOPES) };
  const statements: { sql: string; bindings: readonly unknown[] }[] = [];
  const listen = (query: { sql: string; bindings?: readonly unknown[] }) => {
    statements.push({ sql: query.sql, bindings: query.bindings ?? [] });
  };
  deps.db.on('query', listen);
  try {
    await deps.inTenant(TENANT, async (trx) => {
      await new FileStore(trx).listPage(
        await deps.access.reader(trx, TENANT, caller),
        { view: 'all', visibility: 'all', recentSince: new Date(0), recentLimit: RECENT_FILES_LIMIT },
        { sort: undefined, direction: 'desc', offset: 0, limit: 50 },
      );
    });
  } finally {
    deps.db.off('query', listen);
  }
  const bare = {
    sql: `SELECT * FROM files WHERE drive_id = ? AND status = 'active' ORDER BY created_at DESC, id DESC LIMIT 50`,
    bindings: [driveId],
  };
  for (const statement of [
    ...statements.filter(({ sql }) => /access_versions|FROM files f/.test(sql)),
    bare,
  ]) {
    // The third run: the plans and the planning time once the session's caches are warm.
    for (let i = 0; i < 2; i += 1)
      await deps.inTenant(TENANT, (trx) =>
        trx.raw(
          `EXPLAIN ANALYZE ${statement.sql.replace(/\$\d+/g, '?')}`,
          statement.bindings as Knex.RawBinding[],
        ),
      );
    const plan = await deps.inTenant(TENANT, (trx) =>
      trx.raw<{ rows: Record<string, string>[] }>(
        `EXPLAIN (ANALYZE, BUFFERS) ${statement.sql.replace(/\$\d+/g, '?')}`,
        statement.bindings as Knex.RawBinding[],
      ),
    );
    console.log(`\n${statement.sql.replace(/\s+/g, ' ').slice(0, 200)}`);
    for (const row of plan.rows) console.log(Object.values(row).join(''));
  }
}

/** mulberry32: a small deterministic PRNG, so every run seeds the same files. */
function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function fileRow(i: number, place: { driveId: string; libraryId: string }, random: () => number) {
  const [ext, mimeType, typeClass] = EXTENSIONS[i % EXTENSIONS.length] ?? ['txt', 'text/plain', 'document'];
  const owner = OWNERS[i % OWNERS.length] ?? { id: MEMBER, name: 'Member' };
  const name = `${WORDS[i % WORDS.length] ?? 'File'} ${String(i)}.${ext}`;
  const roll = random();
  const visibility = roll < 0.02 ? 'restricted' : roll < 0.1 ? 'shared' : 'private';
  const id = randomUUID();
  const created = new Date(Date.UTC(2025, 0, 1) + Math.floor(random() * 365 * 86_400_000)).toISOString();
  return {
    id,
    tenant_id: TENANT,
    drive_id: place.driveId,
    library_id: place.libraryId,
    folder_id: null,
    name,
    name_lower: name.toLowerCase(),
    ext,
    mime_type: mimeType,
    type_class: typeClass,
    size: Math.floor(random() * 20_000_000),
    checksum: 'bench',
    version: 1,
    versions_count: 1,
    storage_path: `tenants/${TENANT}/files/${id}/v/1`,
    status: 'active',
    scan_status: 'pending',
    owner_id: owner.id,
    owner_name: owner.name,
    visibility,
    allowed_uids: '{}',
    shared_with: roll > 0.98 ? `{${MEMBER}}` : '{}',
    orphaned_ref: false,
    signed: false,
    // Marked as tried so the thumbnail worker leaves the seeded rows (they have no objects).
    thumbnail_version: 1,
    created_by: owner.id,
    updated_by: owner.id,
    created_at: created,
    updated_at: created,
  };
}

async function main(): Promise<void> {
  const h = await startDriveHarness();
  const admin = new pg.Client({ connectionString: h.identity.database.adminUrl });
  await admin.connect();
  try {
    const deps = h.definition.deps();
    const driveId = await seedDrive(h, {
      name: 'Projects',
      members: [{ userId: MEMBER, role: 'contributor' }],
    });
    const libraryId = await seedLibrary(h, driveId, { name: 'General' });
    const random = prng(42);
    const seed = await timed(async () => {
      for (let start = 0; start < FILES; start += SEED_CHUNK) {
        const rows = Array.from({ length: Math.min(SEED_CHUNK, FILES - start) }, (_, k) =>
          fileRow(start + k, { driveId, libraryId }, random),
        );
        const columns = Object.keys(rows[0] ?? {}).join(', ');
        await deps.inTenant(TENANT, (trx) =>
          trx.raw(
            `INSERT INTO files (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::files, ?)`,
            [JSON.stringify(rows)],
          ),
        );
      }
    });
    const vacuum = await timed(() =>
      admin.query('VACUUM ANALYZE drive.files, drive.file_views, drive.file_stars'),
    );
    console.log(
      `seeded ${FILES.toLocaleString('en-GB')} files in ${fmt(seed.ms / 1_000)} s; VACUUM ANALYZE ${fmt(vacuum.ms / 1_000)} s`,
    );

    const token = await h.token(READER_SCOPES, TENANT, MEMBER);
    const call = async (query: string) => {
      const response = await fetch(`${h.driveUrl}/v1/files?${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const text = await response.text();
      if (response.status !== 200)
        throw new Error(`GET /v1/files?${query}: ${String(response.status)} ${text}`);
      return JSON.parse(text) as { items: unknown[]; total: number };
    };
    const variants = [
      { name: 'first page (50, created desc)', query: '' },
      { name: 'filtered + searched (shared, q=plan)', query: 'visibility=shared&q=plan' },
      { name: 'sorted by name', query: 'sort=name&order=asc' },
    ];
    for (const variant of variants) {
      const { ms, value: page } = await timed(() => call(variant.query));
      console.log(`[info] ${variant.name}: first call ${fmt(ms, 1)} ms`);
      console.log(
        `[info] ${variant.name}: ${String(page.items.length)} items of ${page.total.toLocaleString('en-GB')}`,
      );
    }

    if (process.env.BENCH_DRIVE_EXPLAIN === '1') await explainFirstPage(deps, driveId);
    const barePage = () =>
      deps.inTenant(TENANT, async (trx) => {
        await trx.raw(
          `SELECT * FROM files WHERE drive_id = ? AND status = 'active' ORDER BY created_at DESC, id DESC LIMIT 50`,
          [driveId],
        );
      });
    const caller = { userId: MEMBER, scopes: new Set(READER_SCOPES) };
    const filter = {
      view: 'all' as const,
      visibility: 'all' as const,
      recentSince: new Date(0),
      recentLimit: RECENT_FILES_LIMIT,
    };
    const firstPage = { sort: undefined, direction: 'desc' as const, offset: 0, limit: 50 };
    const abilities = async () => {
      const response = await fetch(`${h.driveUrl}/v1/me/abilities`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await response.text();
      if (response.status !== 200) throw new Error(`GET /v1/me/abilities: ${String(response.status)}`);
    };
    // The route as it was before ADR 0050, in the same rounds: while `before` is set, the list reads the reader's
    // drives, members and libraries afresh (the requests run one at a time, so no other request sees the switch).
    let before = false;
    const cached = deps.access.reader.bind(deps.access);
    deps.access.reader = (trx, tenantId, who) => (before ? fileReader(trx, who) : cached(trx, tenantId, who));
    const callBefore = async () => {
      before = true;
      try {
        await call('');
      } finally {
        before = false;
      }
    };
    // Every round runs each of these once, in turn, so a change in the machine's load (shared CPUs) falls on the
    // baseline and the route alike.
    const loadsBefore = deps.access.loads;
    const measured = await measureRounds([
      { name: 'bare', work: barePage },
      ...variants.map((variant) => ({
        name: variant.name,
        work: async () => {
          await call(variant.query);
        },
      })),
      {
        // The route's database work now: the access version, the reader sets from the cache, the page.
        name: 'cached',
        work: () =>
          deps.inTenant(TENANT, async (trx) => {
            await new FileStore(trx).listPage(
              await deps.access.reader(trx, TENANT, caller),
              filter,
              firstPage,
            );
          }),
      },
      {
        // The route's database work before ADR 0050: the reader's drives, members and libraries read every time.
        name: 'uncached',
        work: () =>
          deps.inTenant(TENANT, async (trx) => {
            await new FileStore(trx).listPage(await fileReader(trx, caller), filter, firstPage);
          }),
      },
      { name: 'abilities', work: abilities },
      { name: 'before', work: callBefore },
    ]);
    const loads = deps.access.loads - loadsBefore;
    const bare = measured.get('bare') ?? { p50: NaN, p95: NaN };
    const rows: string[][] = [];
    const results: { name: string; p95: number; ratio: number }[] = [];
    for (const variant of variants) {
      const load = measured.get(variant.name) ?? { p50: NaN, p95: NaN };
      const ratio = load.p95 / bare.p95;
      results.push({ name: variant.name, p95: load.p95, ratio });
      rows.push([
        `GET /v1/files, ${variant.name}`,
        fmt(load.p50, 2),
        fmt(load.p95, 2),
        fmt(bare.p95, 2),
        fmt(ratio, 2),
        load.p95 < TARGETS.p95Ms && ratio <= TARGETS.ratio ? 'met' : 'not met',
      ]);
    }
    rows.push(['bare SQL page (LIMIT 50)', fmt(bare.p50, 2), fmt(bare.p95, 2), '', '', '']);
    const info = (name: string, label: string) => {
      const figures = measured.get(name) ?? { p50: NaN, p95: NaN };
      rows.push([
        label,
        fmt(figures.p50, 2),
        fmt(figures.p95, 2),
        fmt(bare.p95, 2),
        fmt(figures.p95 / bare.p95, 2),
        '',
      ]);
    };
    info(
      'before',
      '[info] GET /v1/files, first page, access sets read each time (the route before ADR 0050)',
    );
    info('cached', '[info] first page in process, access cache (the route now, no HTTP)');
    info('uncached', '[info] first page in process, access sets read each time (before ADR 0050)');
    info('abilities', '[info] GET /v1/me/abilities (HTTP, token, region check; no database)');

    // The uncached pager's count, in process.
    const count = await measure(
      () =>
        deps.inTenant(TENANT, async (trx) => {
          await new FileStore(trx).listCount(await fileReader(trx, caller), filter);
        }),
      COUNT_RUNS,
    );
    rows.push([
      '[info] uncached count of all 100,000 (the first request after a change)',
      fmt(count.p50, 2),
      fmt(count.p95, 2),
      '',
      '',
      '',
    ]);
    const searched = await measure(
      () =>
        deps.inTenant(TENANT, async (trx) => {
          await new FileStore(trx).listCount(await fileReader(trx, caller), {
            ...filter,
            visibility: 'shared',
            q: 'plan',
          });
        }),
      COUNT_RUNS,
    );
    rows.push([
      '[info] uncached count, shared + q=plan',
      fmt(searched.p50, 2),
      fmt(searched.p95, 2),
      '',
      '',
      '',
    ]);

    console.log('');
    console.log(
      `[info] the access cache read the tenant's drives and libraries ${String(loads)} times in the measured rounds`,
    );
    printTable(
      [
        'measure',
        'p50 ms',
        'p95 ms',
        'bare p95 ms',
        'ratio',
        `target (p95 < ${String(TARGETS.p95Ms)} ms, ≤ ${String(TARGETS.ratio)}x)`,
      ],
      rows,
    );
    for (const result of results) {
      if (result.p95 >= TARGETS.p95Ms || result.ratio > TARGETS.ratio) {
        console.log(
          `not met: ${result.name} (p95 ${fmt(result.p95, 2)} ms, ${fmt(result.ratio, 2)}x the bare page)`,
        );
      }
    }
  } finally {
    await admin.end();
    await h.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
