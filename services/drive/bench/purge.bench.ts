// drive purge benchmark (`make bench`): the time to purge 1,000 files (records and objects) through the product's
// path, beside baselines measured in the same run. Printed, never asserted; a run that cannot complete (infrastructure
// missing, non-2xx answers) exits 1.
// Run alone (with the infrastructure env):
//   node --conditions=development --import tsx services/drive/bench/purge.bench.ts
//
// What runs: identity and the drive on real PostgreSQL, Kafka and MinIO (startDriveHarness: a fresh database, a
// bucket of its own), in this process.
//   1. seed: BENCH_PURGE_FILES files of BENCH_PURGE_BYTES bytes each, twice over, stored as the service stores its
//      own (object at version 1, record, quota, audit event), BENCH_PURGE_SEED_CONCURRENCY at a time. Timed, no target.
//   2. bulk permanent delete: POST /v1/mutations/delete {fileIds, permanent: true} of the first set (records, versions,
//      references, share entries, quota, audit, removal queue in one transaction, then the objects removed).
//   3. Empty Trash: the second set trashed (POST /v1/mutations/delete {fileIds}), then POST /v1/mutations/empty-trash
//      timed.
//   4. baselines: the same number of objects of the same size put, then removed with the bare minio client's
//      removeObjects; and the bare SQL DELETE of as many file rows (their versions by cascade) in one tenant
//      transaction.
//
//   BENCH_PURGE_FILES              files per set (default 1000; at most 1000, the bulk limit)
//   BENCH_PURGE_BYTES              bytes per file (default 4096)
//   BENCH_PURGE_SEED_CONCURRENCY   files stored at once while seeding (default 16)
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Client } from 'minio';
import { envInt } from '../../kit/bench/env.js';
import { fmt, printTable } from '../../kit/bench/report.js';
import { storeServerFile } from '../src/commands/server-files.js';
import { DriveStore } from '../src/db/drives.store.js';
import type { FileRecord } from '../src/db/files.store.js';
import { LibraryStore } from '../src/db/libraries.store.js';
import {
  DEFAULT_LIBRARY_ACL,
  DEFAULT_LIBRARY_POLICIES,
  DEFAULT_SHARE_SOURCE_POLICY,
} from '../src/domain/index.js';
import { DRIVE_ADMIN_ID, DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from '../test/support.js';

const FILES = envInt('BENCH_PURGE_FILES', 1_000, 1);
const BYTES = envInt('BENCH_PURGE_BYTES', 4_096, 1);
const SEED_CONCURRENCY = envInt('BENCH_PURGE_SEED_CONCURRENCY', 16, 1);
const TENANT = 'demo';
/** The product's purge of 1,000 files should stay within a few times the bare object removal and row deletes. */
const TARGET_RATIO = 5;

if (FILES > 1_000) throw new Error('BENCH_PURGE_FILES must be at most 1000 (the bulk delete limit)');

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

async function inParallel<T>(
  count: number,
  concurrency: number,
  work: (n: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const n = next;
        next += 1;
        results[n] = await work(n);
      }
    }),
  );
  return results;
}

async function seedPlace(h: DriveHarness): Promise<{ driveId: string; libraryId: string }> {
  const driveId = randomUUID();
  const libraryId = randomUUID();
  await h.definition.deps().inTenant(TENANT, async (trx) => {
    await new DriveStore(trx).insert(
      {
        id: driveId,
        tenantId: TENANT,
        name: 'Bench drive',
        type: 'shared',
        slug: 'bench-drive',
        ownerId: DRIVE_ADMIN_ID,
        moduleId: null,
        visibility: 'tenant',
        color: 'blue',
        icon: 'Folder',
        description: '',
        allowExternalSharing: false,
        retentionDays: null,
        quotaGb: 1,
        versioningEnabled: true,
        maxVersions: 10,
        defaultLibraryId: libraryId,
        createdBy: DRIVE_ADMIN_ID,
      },
      [],
    );
    await new LibraryStore(trx).insert({
      id: libraryId,
      tenantId: TENANT,
      driveId,
      name: 'Bench',
      description: '',
      kind: 'library',
      context: null,
      memberIds: [],
      visibleInDriveUI: true,
      acl: DEFAULT_LIBRARY_ACL,
      policies: DEFAULT_LIBRARY_POLICIES,
      shareSourcePolicy: DEFAULT_SHARE_SOURCE_POLICY,
      createdBy: DRIVE_ADMIN_ID,
    });
  });
  return { driveId, libraryId };
}

function seedFiles(
  h: DriveHarness,
  place: { driveId: string; libraryId: string },
  set: string,
): Promise<FileRecord[]> {
  const deps = h.definition.deps();
  return inParallel(FILES, SEED_CONCURRENCY, (n) =>
    deps.inTenant(TENANT, (trx) =>
      storeServerFile(
        deps,
        trx,
        { tenantId: TENANT, userId: DRIVE_ADMIN_ID },
        {
          ...place,
          folderId: null,
          name: `${set}-${String(n)}.bin`,
          mimeType: 'application/octet-stream',
          bytes: Buffer.alloc(BYTES, n % 251),
          ownerId: DRIVE_ADMIN_ID,
        },
      ),
    ),
  );
}

async function main(): Promise<void> {
  const h = await startDriveHarness({ env: { SWEEP_INTERVAL_MS: String(24 * 3_600_000) } });
  try {
    const token = await h.token(DRIVE_ADMIN_SCOPES);
    const call = async (path: string, body: unknown) => {
      const answer = await h.call(token, 'POST', path, body);
      if (answer.status !== 200) throw new Error(`${path} answered ${String(answer.status)}: ${answer.text}`);
      return answer.body;
    };
    const place = await seedPlace(h);

    const seeded = await timed(async () => [await seedFiles(h, place, 'a'), await seedFiles(h, place, 'b')]);
    const [first = [], second = []] = seeded.value;

    const bulk = await timed(() =>
      call('/mutations/delete', { fileIds: first.map((file) => file.id), permanent: true }),
    );
    if (bulk.value.deleted !== FILES)
      throw new Error(`bulk delete removed ${String(bulk.value.deleted)} files`);
    await call('/mutations/delete', { fileIds: second.map((file) => file.id) });
    const empty = await timed(() => call('/mutations/empty-trash', {}));
    if (empty.value.purged !== FILES)
      throw new Error(`Empty Trash purged ${String(empty.value.purged)} files`);
    for (const file of [...first.slice(0, 5), ...second.slice(0, 5)]) {
      if (await h.objects.stat(file.storagePath))
        throw new Error(`${file.storagePath} is still in the bucket`);
    }

    // Baselines: the bare object removal and the bare row deletes of as many files.
    const endpoint = new URL(h.config.OBJECT_STORE_URL);
    const minio = new Client({
      endPoint: endpoint.hostname,
      port: Number(endpoint.port),
      useSSL: endpoint.protocol === 'https:',
      accessKey: h.config.OBJECT_STORE_ACCESS_KEY,
      secretKey: h.config.OBJECT_STORE_SECRET_KEY,
      region: h.config.OBJECT_STORE_SIGNING_REGION,
      pathStyle: true,
    });
    const keys = Array.from({ length: FILES }, (_, n) => `baseline/${String(n)}`);
    await inParallel(FILES, SEED_CONCURRENCY, (n) =>
      minio.putObject(h.objects.bucket, keys[n] ?? '', Buffer.alloc(BYTES, n % 251)),
    );
    const bareObjects = await timed(() => minio.removeObjects(h.objects.bucket, keys));
    const rows = await seedFiles(h, place, 'c');
    const bareRows = await timed(() =>
      h.definition.deps().inTenant(TENANT, (trx) =>
        trx('files')
          .whereIn(
            'id',
            rows.map((file) => file.id),
          )
          .delete(),
      ),
    );

    const bare = bareObjects.ms + bareRows.ms;
    console.log(
      `\n${String(FILES)} files of ${String(BYTES)} bytes; seeding ${String(2 * FILES)} took ${fmt(seeded.ms / 1000)} s\n`,
    );
    printTable(
      ['path', 'ms', 'files/s', 'x bare'],
      [
        [
          'bulk permanent delete (POST /mutations/delete)',
          fmt(bulk.ms),
          fmt((FILES / bulk.ms) * 1000),
          fmt(bulk.ms / bare, 2),
        ],
        [
          'Empty Trash (POST /mutations/empty-trash)',
          fmt(empty.ms),
          fmt((FILES / empty.ms) * 1000),
          fmt(empty.ms / bare, 2),
        ],
        ['bare: minio removeObjects', fmt(bareObjects.ms), fmt((FILES / bareObjects.ms) * 1000), '-'],
        ['bare: SQL DELETE of the rows', fmt(bareRows.ms), fmt((FILES / bareRows.ms) * 1000), '-'],
        ['bare: both', fmt(bare), fmt((FILES / bare) * 1000), '1.00'],
      ],
    );
    const worst = Math.max(bulk.ms, empty.ms) / bare;
    console.log(
      `\ntarget: purge within ${String(TARGET_RATIO)}x of the bare removal: ${worst <= TARGET_RATIO ? 'met' : 'not met'} (${fmt(worst, 2)}x)`,
    );
  } finally {
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
