// bff benchmark (`make bench`): an authenticated bff call beside a bare proxy hop to the same identity route, and
// the cost of an effective-scope lookup with a warm cache. Printed, never asserted.
//
// Both paths end at identity's GET /v1/me/effective-scopes with the same user's access token:
//   bff:  GET /api/v1/auth/effective-scopes with the session cookie (session lookup, CSP, CSRF-free GET, access log,
//         metrics, token refresh check, identity client with response validation)
//   bare: plain express + fetch forwarding the bearer token (the honest baseline: on 2 cores a hop alone costs
//         about two thirds of direct throughput)
// Everything runs in this one process (identity, the dev IdP, the bff, the bare hop and autocannon), so absolute
// figures are low; the ratio is what counts.
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import express from 'express';
import { bffConfigSchema, startBff } from '../src/index.js';
import { bffSession } from './session.js';
import { ScopeCache } from '../../services/identity/src/scope-cache.js';
import {
  demoSeed,
  freePort,
  INTERNAL_TOKEN,
  signIn,
  startIdentityHarness,
} from '../../services/identity/test/support.js';

const DURATION_S = Number(process.env.BENCH_HTTP_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 10);
const TARGET = 0.8;

async function load(url: string, headers: Record<string, string>) {
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  const ok = result['2xx'];
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    reqPerSec: ok / DURATION_S,
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
  };
}

const bffPort = await freePort();
const publicUrl = `http://localhost:${bffPort}`;
const harness = await startIdentityHarness({ publicUrl });
const bff = await startBff(
  bffConfigSchema.parse({
    PORT: String(bffPort),
    LOG_LEVEL: 'silent',
    IDENTITY_URL: harness.baseUrl,
    INTERNAL_API_TOKEN: INTERNAL_TOKEN,
    PUBLIC_URL: publicUrl,
    SESSION_SECRET: 'bench-session-secret-0123456789abcdefghij',
  }),
);
const bare = express();
const token = (await signIn(harness, 'demo', 'admin@demo.test', demoSeed.password)).body
  .accessToken as string;
bare.get('/api/v1/auth/effective-scopes', async (_req, res) => {
  const upstream = await fetch(`${harness.baseUrl}/v1/me/effective-scopes`, {
    headers: { authorization: `Bearer ${token}` },
  });
  res.status(upstream.status).json(await upstream.json());
});
const barePort = await freePort();
const bareServer = bare.listen(barePort, '127.0.0.1');

try {
  const cookie = await bffSession(`http://127.0.0.1:${bffPort}`, publicUrl);
  const viaBff = await load(`http://127.0.0.1:${bffPort}/api/v1/auth/effective-scopes`, { cookie });
  const viaBare = await load(`http://127.0.0.1:${barePort}/api/v1/auth/effective-scopes`, {});
  const direct = await load(`${harness.baseUrl}/v1/me/effective-scopes`, {
    authorization: `Bearer ${token}`,
  });

  const cache = new ScopeCache();
  cache.set('demo', 'user', ['cis.read', 'notes.view'], 300_000);
  const lookups = 1_000_000;
  const started = performance.now();
  for (let i = 0; i < lookups; i++) cache.get('demo', 'user');
  const nsPerLookup = ((performance.now() - started) * 1e6) / lookups;

  const row = (name: string, r: { reqPerSec: number; p50: number; p97_5: number; p99: number }) =>
    `${name.padEnd(52)} ${r.reqPerSec.toFixed(0).padStart(7)} ${r.p50.toFixed(1).padStart(7)} ${r.p97_5.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(7)}`;
  console.log(
    `${'path'.padEnd(52)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p97.5 ms'.padStart(8)} ${'p99 ms'.padStart(7)}`,
  );
  console.log(row('bff: GET /api/v1/auth/effective-scopes (session)', viaBff));
  console.log(row('bare hop: express + fetch, same identity route', viaBare));
  console.log(row('identity direct (warm scope cache) [info]', direct));
  const ratio = viaBff.reqPerSec / viaBare.reqPerSec;
  console.log(
    `\nbff/bare hop throughput ${ratio.toFixed(2)}  target >= ${TARGET}  ${ratio >= TARGET ? 'met' : 'not met'}`,
  );
  console.log(`effective-scope lookup, warm in-process cache: ${nsPerLookup.toFixed(0)} ns per lookup`);
  console.log(
    `(autocannon ${CONNECTIONS} connections, 2 s warm-up + ${DURATION_S} s per path, all in one process; p97.5 is autocannon's nearest to p95)`,
  );
} finally {
  bareServer.close();
  await bff.shutdown();
  await harness.stop();
}
