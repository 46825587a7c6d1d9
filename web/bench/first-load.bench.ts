// First-load benchmark (`make bench`): a CIS page's first load in the browser, from navigation start to the last
// data response, beside the same page's API calls made by a script all at once (and one after another). Printed,
// never asserted; a run that cannot complete (infrastructure missing, the page not showing its rows) exits 1.
// Run alone (with the infrastructure env, after `npm run build -w @workspace/web`):
//   node --conditions=development --import tsx web/bench/first-load.bench.ts
//
// What runs: in this process, identity with the dev IdP, notification and the cis service on real PostgreSQL and
// Kafka (startCisHarness, a fresh database), seeded with CIS settings, a subcontractor and a page of invoices; in a
// process of its own, as deployed (bff/bench/bff-process.ts), the bff serving the built web bundles with CIS_URL
// pointing at cis; Debian's Chromium (playwright-core) signed in as the demo admin through the real OIDC pages.
//
//   1. warm start: each page is loaded BENCH_FIRST_LOAD_WARMUP times untimed (the services' and the browser's
//      caches warm, the bundles in the browser's HTTP cache, as for a returning user on `make up`).
//   2. the browser: each page loaded BENCH_FIRST_LOAD_RUNS times in a new tab of the signed-in context; the figure
//      is the Resource Timing responseEnd of the last /api/ answer (the live-update stream left out), from the
//      navigation's start, once the page shows its data. [info] the start of the first /api/ request: what the
//      bundles take before the page can ask for anything; the rest is the page's requests and their order.
//   3. the script (the baseline): the same API calls the browser made for that page, with the session cookie,
//      all at once (Promise.all: the least a page can wait) and one after another (what a chain of requests costs).
//
//   BENCH_FIRST_LOAD_RUNS    timed loads per page and per script variant (default 15)
//   BENCH_FIRST_LOAD_WARMUP  untimed loads per page first (default 3)
import { performance } from 'node:perf_hooks';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startBffProcess } from '../../bff/bench/bff-process.js';
import { envInt } from '../../services/kit/bench/env.js';
import { fmt, printTable } from '../../services/kit/bench/report.js';
import { freePort, INTERNAL_TOKEN } from '@workspace/identity/testing';
import {
  ALL_CIS_SCOPES,
  CIS_ADMIN_ID,
  createSubcontractor,
  invoiceBody,
  settingsBody,
  startCisHarness,
  type CisHarness,
} from '@workspace/cis/testing';
import { distDir, launchChromium, prepareArtifacts, signInThroughPages } from '../test/browser.js';

const RUNS = envInt('BENCH_FIRST_LOAD_RUNS', 15, 1);
const WARMUP = envInt('BENCH_FIRST_LOAD_WARMUP', 3, 0);
const INVOICES = 50;

/** The pages measured: the path, and what shows once the page has its data. */
const PAGES = [
  { name: 'invoice list', path: '/cis/invoices', ready: 'a[href^="/cis/invoices/"]' },
  { name: 'dashboard', path: '/cis', ready: 'text=Quick Actions' },
] as const;

interface Sample {
  /** Navigation start to the last /api/ answer. */
  ms: number;
  /** Navigation start to the first /api/ request (the bundles fetched, parsed and started). */
  firstRequestMs: number;
  calls: string[];
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

async function seed(h: CisHarness): Promise<void> {
  const admin = await h.token(ALL_CIS_SCOPES, 'demo', CIS_ADMIN_ID);
  const settings = await h.call(admin, 'PUT', '/settings', settingsBody());
  if (settings.status !== 200) throw new Error(`settings: ${settings.status} ${settings.text}`);
  const subcontractor = await createSubcontractor(h, admin);
  for (let n = 1; n <= INVOICES; n++) {
    const created = await h.call(
      admin,
      'POST',
      '/invoices',
      invoiceBody(subcontractor, { invoiceNumber: `INV-B${n}` }),
    );
    if (created.status !== 201) throw new Error(`invoice ${n}: ${created.status} ${created.text}`);
  }
}

/** One first load of `path` in a new tab: navigation start to the last /api/ response, and the calls made. */
async function browserLoad(context: BrowserContext, base: string, page: (typeof PAGES)[number]) {
  const tab: Page = await context.newPage();
  try {
    await tab.goto(`${base}${page.path}`);
    await tab.locator(page.ready).first().waitFor({ state: 'visible', timeout: 30_000 });
    return await tab.evaluate(() => {
      const entries = (
        globalThis as unknown as {
          performance: {
            getEntriesByType(type: string): { name: string; startTime: number; responseEnd: number }[];
          };
        }
      ).performance.getEntriesByType('resource');
      const data = entries.filter((entry) => {
        const url = new URL(entry.name);
        return url.pathname.startsWith('/api/') && !url.pathname.endsWith('/stream');
      });
      return {
        ms: Math.max(...data.map((entry) => entry.responseEnd)),
        firstRequestMs: Math.min(...data.map((entry) => entry.startTime)),
        calls: data.map((entry) => {
          const url = new URL(entry.name);
          return url.pathname + url.search;
        }),
      } satisfies Sample;
    });
  } finally {
    await tab.close();
  }
}

/** The same calls from a script with the session cookie: all at once, or one after another. */
async function scriptLoad(base: string, cookie: string, calls: string[], parallel: boolean): Promise<number> {
  const call = async (path: string) => {
    const response = await fetch(`${base}${path}`, { headers: { cookie } });
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    await response.arrayBuffer();
  };
  const started = performance.now();
  if (parallel) await Promise.all(calls.map(call));
  else for (const path of calls) await call(path);
  return performance.now() - started;
}

async function main(): Promise<void> {
  prepareArtifacts();
  const started = performance.now();
  const port = await freePort();
  const publicUrl = `http://localhost:${port}`;
  const h = await startCisHarness({ publicUrl });
  let bff: Awaited<ReturnType<typeof startBffProcess>> | undefined;
  let browser: Browser | undefined;
  try {
    await seed(h);
    bff = await startBffProcess({
      PORT: String(port),
      IDENTITY_URL: h.identity.baseUrl,
      INTERNAL_API_TOKEN: INTERNAL_TOKEN,
      PUBLIC_URL: publicUrl,
      SESSION_SECRET: 'bench-session-secret-0123456789abcdefghij',
      DEFAULT_TENANT: 'demo',
      CIS_URL: h.cisUrl,
      STATIC_DIR: distDir,
    });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-GB' });
    const signIn = await context.newPage();
    await signInThroughPages(signIn, publicUrl, 'admin@demo.test');
    await signIn.close();
    const session = (await context.cookies(publicUrl)).find((cookie) => cookie.name === 'ws_session');
    if (!session) throw new Error('no session cookie after signing in');
    const cookie = `ws_session=${session.value}`;

    const rows: string[][] = [];
    const details: string[] = [];
    for (const page of PAGES) {
      for (let n = 0; n < WARMUP; n++) await browserLoad(context, publicUrl, page);
      const loads: Sample[] = [];
      for (let n = 0; n < RUNS; n++) loads.push(await browserLoad(context, publicUrl, page));
      const calls = [...new Set(loads[0]?.calls ?? [])];
      for (let n = 0; n < WARMUP; n++) await scriptLoad(publicUrl, cookie, calls, true);
      const parallel: number[] = [];
      const serial: number[] = [];
      for (let n = 0; n < RUNS; n++) {
        parallel.push(await scriptLoad(publicUrl, cookie, calls, true));
        serial.push(await scriptLoad(publicUrl, cookie, calls, false));
      }
      const browserMs = loads.map((load) => load.ms);
      const row = (what: string, values: number[]) => [
        `${page.name} (${page.path}): ${what}`,
        String(values.length),
        fmt(percentile(values, 50), 0),
        fmt(percentile(values, 95), 0),
        fmt(Math.min(...values), 0),
      ];
      rows.push(
        row('browser, navigation start to last data response', browserMs),
        row(
          'browser, navigation start to first API request',
          loads.map((load) => load.firstRequestMs),
        ),
        row(`script, the same ${calls.length} API calls at once`, parallel),
        row('script, the same calls one after another', serial),
      );
      details.push(
        `${page.name}: the page's API calls: ${calls.join(', ')}; browser p50 / script-at-once p50 = ${fmt(
          percentile(browserMs, 50) / percentile(parallel, 50),
          1,
        )}x`,
      );
    }

    console.log('\nfirst load of a CIS page (ms):');
    printTable(['measure', 'runs', 'p50', 'p95', 'min'], rows);
    console.log('\ndetails:');
    for (const line of details) console.log(`  ${line}`);
    console.log('\nhow measured:');
    for (const line of [
      'identity, notification and cis run in this process, the bff in its own serving web/dist (as deployed), and',
      'Chromium beside them; PostgreSQL and Kafka share the same CPUs, so absolute figures carry that noise. The',
      'browser figure includes loading and running the bundles (from the HTTP cache after the warm-up) and',
      "rendering; the script's calls are the API calls the browser made for the page, with its session cookie.",
    ])
      console.log(`  ${line}`);
    console.log(`  time: ${fmt((performance.now() - started) / 1_000)} s`);
  } finally {
    await browser?.close();
    await bff?.stop();
    await h.stop();
  }
}

try {
  await main();
} catch (error) {
  console.error(
    `first-load benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exitCode = 1;
}
