// drive transfer benchmark (`make bench`): a 1 GiB file up and down through the product's path, beside the npm
// `minio` client straight to the same MinIO, measured in the same run. Printed, never asserted: a missed target is
// "not met" and the process exits 0; a run that cannot complete (infrastructure missing, a refused call, bytes that
// differ) exits 1.
// Run alone (with the infrastructure env):
//   node --conditions=development --import tsx services/drive/bench/transfer.bench.ts
//
// What runs: identity (dev IdP) and the drive in this process (startDriveHarness: real PostgreSQL, Kafka, MinIO,
// the drive in a bucket of its own), and the "browser" (fetch) in this process too.
//
//   upload, product: POST /v1/uploads (permission, quota, policy, multipart started, a presigned URL per 5 MiB
//     part), every part PUT to its presigned URL with fetch, 3 at a time (the web's concurrency), then
//     POST /v1/uploads/:id/complete: the service lists the parts, completes the upload, stats the object, reads it
//     back once for SHA-256 and content sniffing, and registers the file. The browser's own SHA-256 of the file is
//     computed before the clock starts (a browser hashes the file while reading it; its time is shown apart).
//   upload, baseline: minio.Client.putObject with a stream of the same bytes, to the same MinIO.
//   download, product: the file's presigned GET URL (what /v1/download redirects to) fetched and read to the end.
//   download, baseline: minio.Client.getObject read to the end.
//
//   BENCH_DRIVE_TRANSFER_MIB  file size in MiB (default 1024)
//   BENCH_DRIVE_RUNS          runs of each path, best kept (default 1)
import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { Client } from 'minio';
import { envInt } from '../../kit/bench/env.js';
import { fmt, printTable } from '../../kit/bench/report.js';
import { MIB } from '../src/domain/index.js';
import { DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from '../test/support.js';
import { putParts, seedPlace, type Grant } from '../test/uploads-support.js';

const SIZE_MIB = envInt('BENCH_DRIVE_TRANSFER_MIB', 1024, 5);
const RUNS = envInt('BENCH_DRIVE_RUNS', 1, 1);
const TARGET_RATIO = 0.8;

/** The file: random bytes (nothing compresses or dedupes them), made once. */
function makeFile(): Buffer {
  const file = Buffer.allocUnsafe(SIZE_MIB * MIB);
  for (let offset = 0; offset < file.length; offset += 64 * MIB) {
    randomBytes(Math.min(64 * MIB, file.length - offset)).copy(file, offset);
  }
  return file;
}

async function productUpload(h: DriveHarness, token: string, file: Buffer, checksum: string) {
  const place = await seedPlace(h);
  const started = performance.now();
  const granted = await h.call(token, 'POST', '/uploads', {
    ...place,
    name: 'Bench.bin',
    size: file.length,
    mimeType: 'application/octet-stream',
  });
  if (granted.status !== 201)
    throw new Error(`grant: ${String(granted.status)} ${granted.text.slice(0, 300)}`);
  const grant = granted.body as unknown as Grant;
  const grantedAt = performance.now();
  await putParts(grant, file, 3);
  const sentAt = performance.now();
  const done = await h.call(token, 'POST', `/uploads/${grant.uploadId}/complete`, { checksum });
  if (done.status !== 200) throw new Error(`complete: ${String(done.status)} ${done.text.slice(0, 300)}`);
  const ended = performance.now();
  return {
    ms: ended - started,
    key: grant.objectPath,
    phases: { grant: grantedAt - started, parts: sentAt - grantedAt, complete: ended - sentAt },
  };
}

async function drain(stream: AsyncIterable<unknown>): Promise<number> {
  let bytes = 0;
  for await (const chunk of stream) bytes += (chunk as Uint8Array).length;
  return bytes;
}

async function main(): Promise<void> {
  const h = await startDriveHarness();
  try {
    const token = await h.token(DRIVE_ADMIN_SCOPES);
    const endpoint = new URL(h.config.OBJECT_STORE_URL);
    const minio = new Client({
      endPoint: endpoint.hostname,
      port: Number(endpoint.port),
      useSSL: false,
      accessKey: h.config.OBJECT_STORE_ACCESS_KEY,
      secretKey: h.config.OBJECT_STORE_SECRET_KEY,
      region: h.config.OBJECT_STORE_SIGNING_REGION,
      pathStyle: true,
    });
    await h.objects.ensureBucket();

    const file = makeFile();
    const hashStarted = performance.now();
    const checksum = createHash('sha256').update(file).digest('hex');
    const hashMs = performance.now() - hashStarted;

    const best = { productUp: Infinity, bareUp: Infinity, productDown: Infinity, bareDown: Infinity };
    let phases = { grant: 0, parts: 0, complete: 0 };
    for (let run = 0; run < RUNS; run += 1) {
      const bareKey = `bench/bare-${String(run)}`;
      let started = performance.now();
      await minio.putObject(h.objects.bucket, bareKey, Readable.from(chunks(file)), file.length);
      best.bareUp = Math.min(best.bareUp, performance.now() - started);

      const product = await productUpload(h, token, file, checksum);
      if (product.ms < best.productUp) phases = product.phases;
      best.productUp = Math.min(best.productUp, product.ms);

      started = performance.now();
      const url = await h.objects.presignGet(product.key, 'Bench.bin');
      const response = await fetch(url);
      if (!response.ok || !response.body) throw new Error(`download: ${String(response.status)}`);
      const fetched = await drain(response.body);
      best.productDown = Math.min(best.productDown, performance.now() - started);
      if (fetched !== file.length) throw new Error(`download gave ${String(fetched)} bytes`);

      started = performance.now();
      const read = await drain(await minio.getObject(h.objects.bucket, bareKey));
      best.bareDown = Math.min(best.bareDown, performance.now() - started);
      if (read !== file.length) throw new Error(`getObject gave ${String(read)} bytes`);
      await h.objects.remove([bareKey, product.key]);
    }

    const mibPerS = (ms: number) => SIZE_MIB / (ms / 1_000);
    const row = (label: string, product: number, bare: number) => {
      const ratio = mibPerS(product) / mibPerS(bare);
      return [
        label,
        fmt(product / 1_000, 2),
        fmt(mibPerS(product), 0),
        fmt(bare / 1_000, 2),
        fmt(mibPerS(bare), 0),
        fmt(ratio, 2),
        ratio >= TARGET_RATIO ? 'met' : 'not met',
      ];
    };
    console.log(
      `\n${String(SIZE_MIB)} MiB file, best of ${String(RUNS)} run(s); target: product ≥ ${String(TARGET_RATIO)} × bare`,
    );
    printTable(
      ['transfer', 'product s', 'MiB/s', 'bare minio s', 'MiB/s', 'ratio', 'target'],
      [row('upload', best.productUp, best.bareUp), row('download', best.productDown, best.bareDown)],
    );
    console.log(
      `[info] product upload by phase: grant ${fmt(phases.grant / 1_000, 2)} s, parts ${fmt(phases.parts / 1_000, 2)} s ` +
        `(${fmt(mibPerS(phases.parts), 0)} MiB/s), complete with its checks ${fmt(phases.complete / 1_000, 2)} s`,
    );
    console.log(
      `[info] the browser's SHA-256 of the file (not in the upload figure): ${fmt(hashMs / 1_000, 2)} s`,
    );
    console.log('\nhow measured:');
    for (const line of [
      'upload product: grant + presigned part PUTs (fetch, 3 at a time, 5 MiB parts) + complete (parts listed,',
      'upload completed, object stat, read back once for SHA-256 and sniffing, file registered); bare: one',
      'minio putObject of a stream. download product: the presigned GET fetched to the end; bare: minio getObject.',
      'Everything shares the same 2 CPUs as PostgreSQL, Kafka and MinIO, so absolute figures carry that noise.',
    ])
      console.log(`  ${line}`);
  } finally {
    await h.stop();
  }
}

/** The file as a stream of 1 MiB chunks (what an app holding the bytes would hand putObject). */
function* chunks(file: Buffer): Generator<Buffer> {
  for (let offset = 0; offset < file.length; offset += MIB) yield file.subarray(offset, offset + MIB);
}

try {
  await main();
} catch (error) {
  console.error(
    `drive transfer benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exitCode = 1;
}
