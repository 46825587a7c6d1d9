// bff benchmark (`make bench`): an authenticated bff call beside a bare proxy hop to the same identity route, and
// the cost of an effective-scope lookup with a warm cache. Printed, never asserted.
//
// Both paths end at identity's GET /v1/me/effective-scopes with the same user's access token:
//   bff:  GET /api/v1/auth/effective-scopes with the session cookie (session lookup, CSP, CSRF-free GET, access log,
//         metrics, token refresh check, identity client with response validation)
//   bare: plain express + fetch forwarding the bearer token (the honest baseline: on 2 cores a hop alone costs
//         about two thirds of direct throughput)
// As in production, identity (with the dev IdP), the bff and the bare hop each run in their own process (this file
// started with `--serve <role>`); autocannon runs in this one. They share the machine's CPUs. Besides req/s and
// latency, each hop process's CPU time per request is printed: the steadier figure on a busy machine.
//
//   BENCH_HTTP_CONNECTIONS   concurrent connections (default 10)
//   BENCH_HTTP_DURATION_S    measured seconds per path and round (default 10, after 2 s of warm-up)
//   BENCH_LOG_LEVEL          the servers' log level, their output shown (default: silent)
//   BENCH_CPU_PROF_DIR       write each server process's V8 CPU profile there (node --cpu-prof)
//   BENCH_BFF_ROUNDS         rounds, alternating which path goes first (default 2); figures are their mean
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import express from 'express';
import { nextMessage, serverExecArgv, startBffProcess, stopServer } from './bff-process.js';
import { bffSession } from './session.js';
import { ScopeCache } from '../../services/identity/src/scope-cache.js';
import {
  demoSeed,
  freePort,
  INTERNAL_TOKEN,
  signIn,
  startIdentityHarness,
} from '@workspace/identity/testing';

const DURATION_S = Number(process.env.BENCH_HTTP_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_BFF_ROUNDS ?? 2);
const TARGET = 0.8;
const ROUTE = '/v1/me/effective-scopes';

type Role = 'identity' | 'bare';
type ToParent = { ready: { url: string; token?: string; internalToken?: string } } | { cpu: NodeJS.CpuUsage };
type ToChild = 'cpu' | 'stop';

// ---------------------------------------------------------------------------------------------------------------
// Child: one server.

async function serve(role: Role, args: string[]): Promise<void> {
  const send = (message: ToParent) => process.send?.(message);
  let stop: () => Promise<void>;
  if (role === 'identity') {
    const [publicUrl = ''] = args;
    const harness = await startIdentityHarness({ publicUrl });
    const token = (await signIn(harness, 'demo', 'admin@demo.test', demoSeed.password)).body
      .accessToken as string;
    stop = () => harness.stop();
    send({ ready: { url: harness.baseUrl, token, internalToken: INTERNAL_TOKEN } });
  } else {
    const [identityUrl = ''] = args;
    const bare = express();
    bare.get('/api/v1/auth/effective-scopes', async (req, res) => {
      const upstream = await fetch(`${identityUrl}${ROUTE}`, {
        headers: { authorization: req.headers.authorization ?? '' },
      });
      res.status(upstream.status).json(await upstream.json());
    });
    const port = await freePort();
    const server = bare.listen(port, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    stop = () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      });
    send({ ready: { url: `http://127.0.0.1:${port}` } });
  }
  const quit = () => void stop().finally(() => process.exit(0));
  process.on('message', (message: ToChild) => {
    if (message === 'cpu') send({ cpu: process.cpuUsage() });
    else quit();
  });
  process.on('disconnect', quit);
}

// ---------------------------------------------------------------------------------------------------------------
// Parent: start the processes, sign in, load each path.

const children = new Set<ChildProcess>();
const stops: (() => Promise<void>)[] = [];

async function start(role: Role, ...args: string[]) {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', role, ...args], {
    stdio: ['ignore', process.env.BENCH_LOG_LEVEL ? 'inherit' : 'ignore', 'inherit', 'ipc'],
    execArgv: serverExecArgv(),
  });
  children.add(child);
  const ready = await nextMessage(child, (message: ToParent) =>
    'ready' in message ? message.ready : undefined,
  );
  return { child, ...ready };
}

async function cpuMs(child: ChildProcess): Promise<number> {
  const answer = nextMessage(child, (message: ToParent) => ('cpu' in message ? message.cpu : undefined));
  child.send('cpu' satisfies ToChild);
  const usage = await answer;
  return (usage.user + usage.system) / 1000;
}

async function stopAll(): Promise<void> {
  await Promise.all(stops.map((stop) => stop()));
  await Promise.all([...children].map((child) => stopServer(child)));
}

interface Measured {
  reqPerSec: number;
  p50: number;
  p97_5: number;
  p99: number;
  /** CPU ms per request of the hop process (bff or bare), and of identity. */
  hopCpu: number;
  identityCpu: number;
}

async function load(
  url: string,
  headers: Record<string, string>,
  hop: (() => Promise<number>) | undefined,
  identity: ChildProcess,
): Promise<Measured> {
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const before = await Promise.all([hop ? hop() : 0, cpuMs(identity)]);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  const after = await Promise.all([hop ? hop() : 0, cpuMs(identity)]);
  const ok = result['2xx'];
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    reqPerSec: ok / DURATION_S,
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    hopCpu: (after[0] - before[0]) / ok,
    identityCpu: (after[1] - before[1]) / ok,
  };
}

/** The mean of several rounds of one path. */
function combine(measured: Measured[]): Measured {
  const mean = (pick: (m: Measured) => number) =>
    measured.reduce((sum, m) => sum + pick(m), 0) / Math.max(1, measured.length);
  return {
    reqPerSec: mean((m) => m.reqPerSec),
    p50: mean((m) => m.p50),
    p97_5: mean((m) => m.p97_5),
    p99: mean((m) => m.p99),
    hopCpu: mean((m) => m.hopCpu),
    identityCpu: mean((m) => m.identityCpu),
  };
}

async function main(): Promise<void> {
  const bffPort = await freePort();
  const publicUrl = `http://localhost:${bffPort}`;
  const identity = await start('identity', publicUrl);
  // The harness makes a random internal token per process: the bff must use identity's.
  const bff = await startBffProcess({
    PORT: String(bffPort),
    IDENTITY_URL: identity.url,
    INTERNAL_API_TOKEN: identity.internalToken ?? '',
    PUBLIC_URL: publicUrl,
    SESSION_SECRET: 'bench-session-secret-0123456789abcdefghij',
  });
  stops.push(() => bff.stop());
  const bare = await start('bare', identity.url);
  const token = identity.token ?? '';

  const cookie = await bffSession(bff.url, publicUrl);
  const paths = {
    bff: () => load(`${bff.url}/api/v1/auth/effective-scopes`, { cookie }, () => bff.cpuMs(), identity.child),
    bare: () =>
      load(
        `${bare.url}/api/v1/auth/effective-scopes`,
        { authorization: `Bearer ${token}` },
        () => cpuMs(bare.child),
        identity.child,
      ),
  };
  // Alternate the order between rounds, so neither path always meets the other's leftovers (JIT, GC, caches).
  const rounds: Record<'bff' | 'bare', Measured[]> = { bff: [], bare: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['bff', 'bare'] as const) : (['bare', 'bff'] as const);
    for (const path of order) rounds[path].push(await paths[path]());
  }
  const viaBff = combine(rounds.bff);
  const viaBare = combine(rounds.bare);
  const direct = await load(
    `${identity.url}${ROUTE}`,
    { authorization: `Bearer ${token}` },
    undefined,
    identity.child,
  );

  const cache = new ScopeCache();
  cache.set('demo', 'user', ['cis.read', 'notes.view'], 300_000);
  const lookups = 1_000_000;
  const started = performance.now();
  for (let i = 0; i < lookups; i++) cache.get('demo', 'user');
  const nsPerLookup = ((performance.now() - started) * 1e6) / lookups;

  const cpu = (value: number) => (value > 0 ? value.toFixed(3) : '-');
  const row = (name: string, r: Measured) =>
    `${name.padEnd(50)} ${r.reqPerSec.toFixed(0).padStart(6)} ${r.p50.toFixed(1).padStart(7)} ${r.p97_5.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(7)} ${cpu(r.hopCpu).padStart(10)} ${cpu(r.identityCpu).padStart(12)}`;
  console.log(
    `${'path'.padEnd(50)} ${'req/s'.padStart(6)} ${'p50 ms'.padStart(7)} ${'p97.5 ms'.padStart(8)} ${'p99 ms'.padStart(7)} ${'hop CPU ms'.padStart(10)} ${'identity CPU'.padStart(12)}`,
  );
  console.log(row('bff: GET /api/v1/auth/effective-scopes (session)', viaBff));
  console.log(row('bare hop: express + fetch, same identity route', viaBare));
  console.log(row('identity direct (warm scope cache) [info]', direct));
  const ratio = viaBff.reqPerSec / viaBare.reqPerSec;
  console.log(
    `\nbff/bare hop throughput ${ratio.toFixed(2)}  target >= ${TARGET}  ${ratio >= TARGET ? 'met' : 'not met'}` +
      `  (hop CPU per request: bff ${viaBff.hopCpu.toFixed(3)} ms, bare ${viaBare.hopCpu.toFixed(3)} ms)`,
  );
  console.log(`effective-scope lookup, warm in-process cache: ${nsPerLookup.toFixed(0)} ns per lookup`);
  console.log(
    `(autocannon ${CONNECTIONS} connections, ${ROUNDS} rounds of 2 s warm-up + ${DURATION_S} s per path; identity, the bff and the bare` +
      ` hop each in their own process, sharing the CPUs; p97.5 is autocannon's nearest to p95)`,
  );
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt >= 0) {
  const role = process.argv[serveAt + 1] as Role;
  await serve(role, process.argv.slice(serveAt + 2));
} else {
  try {
    await main();
  } finally {
    await stopAll();
  }
}
