// HTTP benchmark (`make bench`): the kit's request overhead. The same POST route, served (a) by the kit
// (createServiceApp + ApiRouter: helmet, request id, the access log, metrics, RS256 bearer token, zod body
// validation) and (b) by a bare express 5 app with express.json(), is loaded with autocannon. Figures are printed,
// never asserted: a missed target is "not met" and the process exits 0; a broken run (errors, non-2xx) exits 1.
// Run alone (needs no infrastructure): node --conditions=development --import tsx services/kit/bench/http.bench.ts
//
// Each server runs in a child process (this file, started with `--serve <variant>`), so autocannon and the server
// do not share an event loop; they still share the machine's CPUs. Latency percentiles come from autocannon's
// per-response times (fractional ms); req/s is 2xx responses over autocannon's measured duration.
//
//   BENCH_HTTP_CONNECTIONS   concurrent connections (default 10)
//   BENCH_HTTP_DURATION_S    measured seconds per server (default 10)
//   BENCH_HTTP_WARMUP_S      warm-up seconds per server, not measured (default 2)
import { fork, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import express from 'express';
import { z } from 'zod';
import { ApiRouter, createLogger, createMetricsRegistry, createServiceApp } from '../src/index.js';
import { createTestIssuer } from '../src/testing/index.js';
import { envInt } from './env.js';
import { fmt, printTable } from './report.js';
import { nextMessage } from './server-process.js';

const CONNECTIONS = envInt('BENCH_HTTP_CONNECTIONS', 10, 1);
const DURATION_S = envInt('BENCH_HTTP_DURATION_S', 10, 1);
const WARMUP_S = envInt('BENCH_HTTP_WARMUP_S', 2, 0);
const TARGET_RATIO = 0.8;

const variants = {
  kit: 'kit: createServiceApp + ApiRouter (info logs)',
  bare: 'bare express 5 + express.json()',
  'kit-silent': 'kit, LOG_LEVEL=silent [info]',
  'kit-public': 'kit, LOG_LEVEL=silent, no token [info]',
} as const;
type Variant = keyof typeof variants;
const isVariant = (value: string | undefined): value is Variant => value !== undefined && value in variants;

const PATH = '/api/items';
const BODY = JSON.stringify({ name: 'Scaffold tower', quantity: 3 });
const EXPECTED = { id: 'item-1', name: 'Scaffold tower', quantity: 3 };

/** Parent <-> child messages. */
type ToParent = { ready: { port: number; token: string } } | { cpu: NodeJS.CpuUsage };
type ToChild = 'cpu' | 'stop';

// ---------------------------------------------------------------------------------------------------------------
// Child: one server.

async function serve(variant: Variant): Promise<void> {
  const issuer = await createTestIssuer();
  const token = await issuer.token({ tenantId: 'bench-tenant', scopes: ['bench.write'], expiresIn: '1h' });
  let app: express.Express;
  if (variant === 'bare') {
    app = express();
    app.use(express.json());
    app.post(PATH, (req, res) => {
      const body = req.body as { name: string; quantity: number };
      res.json({ id: 'item-1', name: body.name, quantity: body.quantity });
    });
  } else {
    const itemBody = z.object({
      name: z.string().trim().min(1).max(100),
      quantity: z.number().int().min(1).max(1_000),
    });
    const item = z.object({ id: z.string(), name: z.string(), quantity: z.number().int() });
    // kit-public: the same route without token verification (public), to show what verifying a token costs.
    const isPublic = variant === 'kit-public';
    const api = new ApiRouter().route({
      method: 'post',
      path: '/items',
      summary: 'Create an item',
      ...(isPublic ? { public: true } : { scopes: ['bench.write'] }),
      request: { body: itemBody },
      responses: { 200: { description: 'Created', schema: item } },
      handler: ({ body }) => Promise.resolve({ id: 'item-1', name: body.name, quantity: body.quantity }),
    });
    // Logs go to this process's stdout, which the parent points at /dev/null: the cost of writing every access
    // log line is measured, a terminal's is not.
    const logger = createLogger({ name: 'bench', level: variant === 'kit' ? 'info' : 'silent' });
    app = createServiceApp({
      name: 'bench',
      logger,
      metrics: createMetricsRegistry('bench'),
      ...(isPublic ? {} : { auth: { keys: issuer.keys, issuer: issuer.issuer, audience: issuer.audience } }),
      readiness: {},
      apis: [{ basePath: '/api', api }],
    });
  }
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('server has no port');
  const send = (message: ToParent) => process.send?.(message);
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on('message', (message: ToChild) => {
    if (message === 'cpu') send({ cpu: process.cpuUsage() });
    else stop();
  });
  // The parent went away (e.g. Ctrl-C): do not outlive it.
  process.on('disconnect', stop);
  send({ ready: { port: address.port, token } });
}

// ---------------------------------------------------------------------------------------------------------------
// Parent: start each server, check it answers, warm it up, measure it.

interface Measured {
  variant: Variant;
  requestsPerSecond: number;
  total: number;
  p50: number;
  p95: number;
  p99: number;
  /** Share of one core the server used while measured. */
  serverCpu: number;
  /** Server CPU time per request (ms): steadier than req/s on a busy machine. */
  cpuPerRequest: number;
  problems: string[];
}

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN);

/** The server process's CPU time so far. */
function cpuOf(child: ChildProcess): Promise<NodeJS.CpuUsage> {
  const answer = nextMessage(
    child,
    (message: ToParent) => ('cpu' in message ? message.cpu : undefined),
    'server process',
    30_000,
  );
  child.send('cpu' satisfies ToChild);
  return answer;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  if (child.connected) child.send('stop' satisfies ToChild);
  const timer = setTimeout(() => {
    child.kill('SIGKILL');
  }, 5_000);
  await exited;
  clearTimeout(timer);
}

/** One request outside autocannon, on its own connection, to prove the route answers what both should. */
function checkResponse(port: number, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: PATH, method: 'POST', headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode === 200 && text === JSON.stringify(EXPECTED)) resolve();
          else reject(new Error(`unexpected answer ${res.statusCode ?? '?'}: ${text.slice(0, 200)}`));
        });
      },
    );
    req.on('error', reject);
    req.end(BODY);
  });
}

function load(options: autocannon.Options, onLatency?: (ms: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error: unknown, result: autocannon.Result) => {
      if (error) reject(error instanceof Error ? error : new Error('autocannon failed'));
      else resolve(result);
    });
    if (onLatency) {
      instance.on('response', (_client, statusCode, _bytes, responseTime) => {
        if (statusCode >= 200 && statusCode < 300) onLatency(responseTime);
      });
    }
  });
}

const children = new Set<ChildProcess>();

async function measure(variant: Variant): Promise<Measured> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', variant], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.add(child);
  try {
    const { port, token } = await nextMessage(
      child,
      (message: ToParent) => ('ready' in message ? message.ready : undefined),
      'server process',
      30_000,
    );
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    await checkResponse(port, headers);
    const options: autocannon.Options = {
      url: `http://127.0.0.1:${port}${PATH}`,
      connections: CONNECTIONS,
      method: 'POST',
      headers,
      body: BODY,
    };
    if (WARMUP_S > 0) await load({ ...options, duration: WARMUP_S });
    const latencies: number[] = [];
    const before = await cpuOf(child);
    const result = await load({ ...options, duration: DURATION_S }, (ms) => latencies.push(ms));
    const after = await cpuOf(child);
    latencies.sort((a, b) => a - b);
    const problems: string[] = [];
    if (result.non2xx > 0) problems.push(`${result.non2xx} non-2xx responses`);
    if (result.errors > 0) problems.push(`${result.errors} errors (${result.timeouts} timeouts)`);
    const cpuMicros = after.user - before.user + (after.system - before.system);
    return {
      variant,
      requestsPerSecond: result['2xx'] / result.duration,
      total: result['2xx'],
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      serverCpu: cpuMicros / 1_000 / (result.duration * 1_000),
      cpuPerRequest: cpuMicros / 1_000 / Math.max(1, result['2xx']),
      problems,
    };
  } finally {
    await stopChild(child);
    children.delete(child);
  }
}

function printResults(results: Measured[], bare: Measured): void {
  const header = [
    'server',
    'requests',
    'req/s',
    'vs bare',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'CPU',
    'CPU ms/req',
  ];
  const cells = results.map((r) => [
    variants[r.variant],
    String(r.total),
    fmt(r.requestsPerSecond, 0),
    fmt(r.requestsPerSecond / bare.requestsPerSecond, 2),
    fmt(r.p50, 2),
    fmt(r.p95, 2),
    fmt(r.p99, 2),
    `${fmt(r.serverCpu * 100, 0)}%`,
    fmt(r.cpuPerRequest, 3),
  ]);
  printTable(header, cells);
}

async function main(): Promise<void> {
  const started = performance.now();
  console.log(
    `POST ${PATH} with a ${Buffer.byteLength(BODY)}-byte JSON body, ${CONNECTIONS} connections, ` +
      `${WARMUP_S} s warm-up + ${DURATION_S} s measured per server, ${cpus().length} CPUs`,
  );
  const results: Measured[] = [];
  for (const variant of ['kit', 'bare', 'kit-silent', 'kit-public'] as const)
    results.push(await measure(variant));
  const kit = results.find((r) => r.variant === 'kit');
  const bare = results.find((r) => r.variant === 'bare');
  if (!kit || !bare) throw new Error('missing results');

  console.log('');
  printResults(results, bare);
  console.log('');
  const ratio = kit.requestsPerSecond / bare.requestsPerSecond;
  console.log('target (kit with info logs against bare express):');
  console.log(
    `  throughput kit/bare  ${fmt(ratio, 2)}  target >= ${TARGET_RATIO}  ${ratio >= TARGET_RATIO ? 'met' : 'not met'}` +
      `  (by server CPU per request: ${fmt(bare.cpuPerRequest / kit.cpuPerRequest, 2)})`,
  );
  console.log('');
  console.log('how measured:');
  for (const line of [
    'Each server runs in its own child process; autocannon runs in this one, so they do not share an event',
    "loop (they do share the CPUs). req/s = 2xx responses / autocannon's measured duration; p50/p95/p99 are",
    "from autocannon's per-response times. CPU = the server process's CPU time / wall time (100% = one core);",
    'CPU ms/req = its CPU time / requests answered. The kit rows use a real RS256 token (createTestIssuer),',
    'helmet, request ids, access logs (info: written to /dev/null), metrics, zod body validation.',
    '[info] rows show where the difference goes: without access logs, then also without token verification.',
  ])
    console.log(`  ${line}`);
  console.log(`  time: ${fmt((performance.now() - started) / 1_000)} s`);
  const broken = results.filter((r) => r.problems.length > 0);
  for (const r of broken) console.error(`${variants[r.variant]}: ${r.problems.join(', ')}`);
  if (broken.length > 0) throw new Error('the HTTP benchmark did not run cleanly; its figures are not valid');
}

const serveIndex = process.argv.indexOf('--serve');
if (serveIndex >= 0) {
  const variant = process.argv[serveIndex + 1];
  if (!isVariant(variant)) throw new Error(`unknown server variant ${variant ?? '(none)'}`);
  await serve(variant);
} else {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      for (const child of children) child.kill('SIGKILL');
      process.exit(code);
    });
  }
  try {
    await main();
  } catch (error) {
    console.error(
      `HTTP benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exitCode = 1;
  } finally {
    await Promise.all([...children].map(stopChild));
  }
}
