// cis benchmark (`make bench`): the CIS workloads of one large tenant, each beside a bare baseline measured in the
// same run. Printed, never asserted: a missed target is "not met" and the process exits 0; a run that cannot
// complete (infrastructure missing, non-2xx answers, rows refused) exits 1.
// Run alone (with the infrastructure env):
//   node --conditions=development --import tsx services/cis/bench/cis.bench.ts
//
// What runs: in this process, identity with the dev IdP, notification with its SMTP sink and the cis service on
// real PostgreSQL and Kafka (startCisHarness, a fresh database) and the load generators; in a process of its own,
// as deployed (bff/bench/bff-process.ts), the bff with CIS_URL pointing at cis and a session signed in through the
// real OIDC flow.
//
//   1. seed: one tenant ('demo'), 200 subcontractors and 100,000 invoices (amounts from calculateInvoice, 12 tax
//      months, a mix of statuses; each tax month has exactly 5,000 paid invoices), bulk-inserted by the cis
//      runtime role in tenant transactions (json_populate_recordset, 5,000 rows per statement); then VACUUM
//      ANALYZE, as autovacuum would do after such a load. Timed, no target.
//   2. invoice list through the bff (page 1 of 50; a search; a status filter) with autocannon: p50/p95/req/s,
//      beside the bare SQL of the same page (pg, tenant transaction, same concurrency). [info] rows: page 1
//      through the bff on one connection, cis called directly, and the route's three queries (page, count,
//      summary cards) run bare.
//   3. return compile of a month with 5,000 paid invoices (POST /v1/returns/:month/compile on cis), beside the
//      bare GROUP BY aggregate of the same month.
//   4. bulk approve of 1,000 drafts (POST /v1/invoices/approve), beside one bare UPDATE of 1,000 other drafts.
//   5. CSV import of 10,000 rows (POST /v1/invoices/import), beside a bare multi-row insert of the same rows (in
//      chunks of 1,000 as the route); the import's parse and row checks in process (parseInvoiceCsv and
//      parseImportRow on every row), beside csv-parse alone on the same text; the CSV export of those 10,000
//      invoices (GET /v1/invoices/export.csv), beside the bare SELECT of the same rows joined with commas.
//   6. statement PDFs: renderStatementPdf in a loop (per second, and each document's p95) and
//      GET /v1/statements/:id/pdf, beside the same loop rendering an empty pdfkit document.
//
//   BENCH_CIS_INVOICES     invoices seeded (default 100000; at least 12000)
//   BENCH_CIS_IMPORT_ROWS  rows of the CSV import (default 10000)
//   BENCH_CIS_CONNECTIONS  concurrent connections of the list and PDF loads (default 4)
//   BENCH_CIS_DURATION_S   measured seconds per list path and per PDF loop (default 5; 1 s warm-up before each)
//   BENCH_CIS_EXPLAIN      1: print EXPLAIN (ANALYZE, BUFFERS) of the list route's queries
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { withTenant, type Knex } from '@workspace/kit';
import autocannon from 'autocannon';
import PDFDocument from 'pdfkit';
import { parse as parseCsv } from 'csv-parse/sync';
import pg from 'pg';
import { startBffProcess } from '../../../bff/bench/bff-process.js';
import { bffSession } from '../../../bff/bench/session.js';
import { envInt } from '../../kit/bench/env.js';
import { fmt, printTable } from '../../kit/bench/report.js';
import { freePort, INTERNAL_TOKEN } from '@workspace/identity/testing';
import { parseImportRow, parseInvoiceCsv } from '../src/documents/csv-import.js';
import { renderStatementPdf, type StatementPdfInput } from '../src/documents/statement-pdf.js';
import {
  calculateInvoice,
  currentTaxMonth,
  maskNino,
  maskUtr,
  previousTaxMonth,
  taxMonthOf,
} from '../src/domain/index.js';
import { statementPdfInput } from '../src/commands/statements.js';
import { StatementStore, type StatementRecord } from '../src/db/statements.store.js';
import { ALL_CIS_SCOPES, settingsBody, startCisHarness, type CisHarness } from '../test/support.js';

const INVOICES = envInt('BENCH_CIS_INVOICES', 100_000, 12_000);
const IMPORT_ROWS = envInt('BENCH_CIS_IMPORT_ROWS', 10_000, 1);
const CONNECTIONS = envInt('BENCH_CIS_CONNECTIONS', 4, 1);
const DURATION_S = envInt('BENCH_CIS_DURATION_S', 5, 1);
const EXPLAIN = process.env.BENCH_CIS_EXPLAIN === '1';
const SUBCONTRACTORS = 200;
const MONTHS = 12;
const SEED_CHUNK = 5_000;
const APPROVE_COUNT = 1_000;
const STATEMENTS = 20;
const TENANT = 'demo';
const ACTOR = '00000000-0000-4000-8000-0000000000aa';
const TARGETS = {
  listP95Ms: 50,
  compileMs: 2_000,
  importMs: 10_000,
  parseMs: 3_000,
  exportMs: 3_000,
  pdfP95Ms: 250,
};

// ---------------------------------------------------------------------------------------------------------------
// Measuring helpers.

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN);

const median = (values: number[]): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

interface Load {
  name: string;
  count: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

function summarise(name: string, latencies: number[], seconds: number): Load {
  latencies.sort((a, b) => a - b);
  return {
    name,
    count: latencies.length,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
  };
}

function cannon(options: autocannon.Options, onLatency?: (ms: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error: unknown, result: autocannon.Result) => {
      if (error) reject(error instanceof Error ? error : new Error('autocannon failed'));
      else resolve(result);
    });
    if (onLatency)
      instance.on('response', (_client, statusCode, _bytes, responseTime) => {
        if (statusCode >= 200 && statusCode < 300) onLatency(responseTime);
      });
  });
}

/** autocannon against one URL: 1 s warm-up, then DURATION_S measured; any non-2xx or error breaks the run. */
async function httpLoad(
  name: string,
  url: string,
  headers: Record<string, string>,
  connections = CONNECTIONS,
): Promise<Load> {
  const check = await fetch(url, { headers });
  if (check.status !== 200) throw new Error(`${name}: ${check.status} ${(await check.text()).slice(0, 300)}`);
  await check.arrayBuffer().catch(() => undefined);
  await cannon({ url, headers, connections, duration: 1 });
  const latencies: number[] = [];
  const result = await cannon({ url, headers, connections, duration: DURATION_S }, (ms) =>
    latencies.push(ms),
  );
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return summarise(name, latencies, result.duration);
}

/** `workers` concurrent loops of `once` for `seconds` (after a 1 s warm-up); latency of each call. */
async function loopLoad(
  name: string,
  once: (i: number) => Promise<unknown>,
  workers = CONNECTIONS,
  seconds = DURATION_S,
): Promise<Load> {
  const run = async (ms: number, latencies?: number[]) => {
    const deadline = performance.now() + ms;
    let n = 0;
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (performance.now() < deadline) {
          const started = performance.now();
          await once(n++);
          latencies?.push(performance.now() - started);
        }
      }),
    );
  };
  await run(1_000);
  const latencies: number[] = [];
  const started = performance.now();
  await run(seconds * 1_000, latencies);
  return summarise(name, latencies, (performance.now() - started) / 1_000);
}

/**
 * One call on its own connection (agent: false). fetch's pooled keep-alive sockets race the server's 5 s
 * keep-alive timeout after a pause (the client reuses a socket the server is closing: 'fetch failed'), and a
 * POST is not retried.
 */
function direct(
  url: string,
  method: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: Record<string, unknown> = {};
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            // not JSON: the text is there
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, text });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Seed data.

/** mulberry32: a small deterministic PRNG, so every run seeds the same amounts. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const FIRST = ['Dave', 'Sam', 'Pat', 'Alex', 'Chris', 'Jo', 'Lee', 'Mo', 'Kim', 'Ray'];
const LAST = ['Brick', 'Slate', 'Plaster', 'Stone', 'Timber', 'Joist', 'Mortar', 'Beam', 'Render', 'Tile'];
const TRADES = ['Groundworks', 'Roofing', 'Joinery', 'Electrical', 'Plumbing', 'Scaffolding', 'Drylining'];

interface Sub {
  id: string;
  name: string;
  rate: 0 | 20 | 30;
  reference: string;
  utrMasked: string;
  ninoMasked: string;
}

function subcontractorRows(encrypt: (value: string) => string): {
  rows: Record<string, unknown>[];
  subs: Sub[];
} {
  const rows: Record<string, unknown>[] = [];
  const subs: Sub[] = [];
  for (let i = 0; i < SUBCONTRACTORS; i++) {
    const company = i % 4 === 3;
    const base = `${FIRST[i % 10] ?? ''} ${LAST[Math.floor(i / 10) % 10] ?? ''} ${TRADES[i % 7] ?? ''}`;
    const name = company ? `${base} Ltd` : i >= 100 ? `${base} ${Math.floor(i / 100) + 1}` : base;
    const [status, rate] =
      i % 10 === 0
        ? (['gross', 0] as const)
        : i % 10 === 9
          ? (['higher', 30] as const)
          : (['standard', 20] as const);
    const utr = String(5_000_000_000 + i * 7_919);
    const nino = company ? '' : `AB${String(100_000 + i).slice(-6)}C`;
    const reference = `V${String(1_000_000_000 + i)}${rate === 30 ? 'AB' : ''}`;
    const id = randomUUID();
    subs.push({ id, name, rate, reference, utrMasked: maskUtr(utr), ninoMasked: maskNino(nino) });
    rows.push({
      id,
      tenant_id: TENANT,
      type: company ? 'company' : 'individual',
      name,
      utr_enc: encrypt(utr),
      utr_masked: maskUtr(utr),
      nino_enc: nino ? encrypt(nino) : null,
      nino_masked: nino ? maskNino(nino) : '',
      company_number: company ? String(10_000_000 + i) : '',
      email: `accounts+${i}@sub.test`,
      phone: '07700900123',
      registered_address: {
        line1: `${i + 1} High Street`,
        city: 'Leeds',
        postcode: 'LS1 1AA',
        country: 'GB',
      },
      gdpr_consent: true,
      gdpr_consent_date: new Date(),
      verification_status: status,
      verification_rate: rate,
      verification_reference: reference,
      verified_date: '2025-01-10',
      verified_by: ACTOR,
      created_by: ACTOR,
      updated_by: ACTOR,
    });
  }
  return { rows, subs };
}

/** The first day of a tax month label's calendar month plus `day - 1` days, as 'YYYY-MM-DD'. */
function dayOf(label: string, day: number): string {
  const [year = 0, month = 1] = label.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
}

/** The tax months seeded, oldest first: the 12 before the current one (all in the past). */
function seededMonths(): string[] {
  const months = [previousTaxMonth(currentTaxMonth())];
  while (months.length < MONTHS) months.unshift(previousTaxMonth(months[0] ?? ''));
  return months;
}

interface Amounts {
  grossP: number;
  materialsP: number;
  vatRate: 0 | 5 | 20;
  reverseCharge: boolean;
}

function randomAmounts(random: () => number): Amounts {
  const grossP = 5_000 + Math.floor(random() * 40) * 5_000 + Math.floor(random() * 100) * 100;
  const materialsP = random() < 0.3 ? 0 : Math.floor((grossP * Math.floor(random() * 60)) / 100);
  const v = random();
  const vatRate = v < 0.8 ? 20 : v < 0.9 ? 5 : 0;
  return { grossP, materialsP, vatRate, reverseCharge: vatRate === 20 && random() < 0.4 };
}

function amountColumns(amounts: Amounts, cisRate: number) {
  const calc = calculateInvoice({ ...amounts, cisRate });
  if (calc.errors.length > 0) throw new Error(`seed amounts refused: ${calc.errors.join('; ')}`);
  return {
    vat_rate: amounts.vatRate,
    reverse_charge: amounts.reverseCharge,
    gross_p: calc.grossP,
    materials_p: calc.materialsP,
    materials_percentage: calc.materialsPercentage,
    labour_p: calc.labourP,
    cis_deduction_p: calc.cisDeductionP,
    vat_base_p: calc.vatBaseP,
    vat_amount_p: calc.vatAmountP,
    gross_total_p: calc.grossTotalP,
    net_payment_p: calc.netPaymentP,
    cis_rate: cisRate,
  };
}

/**
 * Invoice `i`: tax month i % 12, position k = i / 12 in its month. Per month the first 60 % are paid (paid in
 * the same tax month as invoiced: 5,000 per month at 100,000 invoices), then approved 12 %, draft 18 %,
 * cancelled 5 %, portal drafts 5 %; subcontractor k % 200, so each has 25 paid invoices per month.
 */
function invoiceRow(i: number, months: string[], subs: Sub[], random: () => number): Record<string, unknown> {
  const perMonth = Math.ceil(INVOICES / MONTHS);
  const month = months[i % MONTHS] ?? '';
  const k = Math.floor(i / MONTHS);
  const sub = subs[k % subs.length] as Sub;
  const share = k / perMonth;
  const status =
    k < Math.round(perMonth * 0.6)
      ? 'paid'
      : share < 0.72
        ? 'approved'
        : share < 0.9
          ? 'draft'
          : share < 0.95
            ? 'cancelled'
            : 'portal_draft';
  const invoiceDate = dayOf(month, 6 + (k % 15));
  const paymentDate = dayOf(month, 6 + (k % 15) + (k % 8));
  const at = new Date(`${invoiceDate}T09:00:00Z`);
  at.setUTCSeconds(k % 36_000);
  const paidAt = new Date(`${paymentDate}T15:00:00Z`);
  const amounts = amountColumns(randomAmounts(random), sub.rate);
  const decided = status === 'approved' || status === 'paid';
  const statement = decided && amounts.cis_deduction_p > 0;
  return {
    id: randomUUID(),
    tenant_id: TENANT,
    invoice_number: `INV-${String(i + 1).padStart(6, '0')}`,
    subcontractor_id: sub.id,
    subcontractor_name: sub.name,
    status,
    source: status === 'portal_draft' ? 'portal' : 'staff',
    invoice_date: invoiceDate,
    received_date: dayOf(month, 7 + (k % 15)),
    payment_date: status === 'paid' ? paymentDate : null,
    tax_month: status === 'paid' ? taxMonthOf(paymentDate) : null,
    description: `${TRADES[k % 7] ?? ''} works, plot ${(k % 40) + 1}`,
    materials_justification: amounts.materials_p > amounts.gross_p * 0.5 ? 'Supplied blocks and mortar' : '',
    ...amounts,
    verification_reference: sub.reference,
    utr_masked: sub.utrMasked,
    nino_masked: sub.ninoMasked,
    statement_required: statement,
    statement_requested_at: statement ? at : null,
    statement_requested_by: statement ? ACTOR : null,
    approved_at: decided ? at : null,
    approved_by: decided ? ACTOR : null,
    locked_at: decided ? at : null,
    paid_at: status === 'paid' ? paidAt : null,
    paid_by: status === 'paid' ? ACTOR : null,
    cancelled_at: status === 'cancelled' ? at : null,
    cancelled_by: status === 'cancelled' ? ACTOR : null,
    created_at: at,
    updated_at: status === 'paid' ? paidAt : at,
    created_by: ACTOR,
    updated_by: ACTOR,
  };
}

/** A multi-row insert of any number of rows in one statement: the rows as one JSON parameter. */
async function insertRows(trx: Knex.Transaction, table: string, rows: Record<string, unknown>[]) {
  const columns = Object.keys(rows[0] ?? {}).join(', ');
  await trx.raw(
    `INSERT INTO ${table} (${columns}) SELECT ${columns} FROM json_populate_recordset(null::${table}, ?::json)`,
    [JSON.stringify(rows)],
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The run.

interface Figure {
  name: string;
  figure: string;
  baseline: string;
  ratio: number;
  target: string;
  met: boolean | null;
}

const loadRow = (load: Load) => [
  load.name,
  String(load.count),
  fmt(load.perSecond, 0),
  fmt(load.p50, 2),
  fmt(load.p95, 2),
  fmt(load.p99, 2),
];

async function main(): Promise<void> {
  const started = performance.now();
  const months = seededMonths();
  const target = months[months.length - 1] ?? '';
  console.log(
    `one tenant, ${SUBCONTRACTORS} subcontractors, ${INVOICES.toLocaleString('en-GB')} invoices over tax months ` +
      `${months[0] ?? ''}..${target}; ${CONNECTIONS} connections, 1 s warm-up + ${DURATION_S} s per load; ` +
      `${cpus().length} CPUs`,
  );

  const bffPort = await freePort();
  const publicUrl = `http://localhost:${bffPort}`;
  const h: CisHarness = await startCisHarness({ publicUrl });
  const bff = await startBffProcess({
    PORT: String(bffPort),
    IDENTITY_URL: h.identity.baseUrl,
    INTERNAL_API_TOKEN: INTERNAL_TOKEN,
    PUBLIC_URL: publicUrl,
    SESSION_SECRET: 'bench-session-secret-0123456789abcdefghij',
    DEFAULT_TENANT: TENANT,
    CIS_URL: h.cisUrl,
  });
  const deps = h.definition.deps();
  const db = deps.db;
  const sql = new pg.Pool({ connectionString: h.cis.deps.config.DATABASE_URL, max: CONNECTIONS + 2 });
  const admin = new pg.Client({ connectionString: h.identity.database.adminUrl });
  await admin.connect();
  const figures: Figure[] = [];

  /** Bare SQL in a tenant transaction, as the service's withTenant does, on a plain pg connection. */
  const inTenant = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await sql.connect();
    try {
      await client.query('BEGIN');
      await client.query("SELECT set_config('app.tenant_id', $1, true)", [TENANT]);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };

  try {
    const token = await h.token(ALL_CIS_SCOPES, TENANT, ACTOR);
    const cis = async (method: string, path: string, body?: unknown) => {
      const result = await direct(`${h.cisUrl}/v1${path}`, method, token, body);
      if (result.status >= 300)
        throw new Error(`${method} ${path}: ${result.status} ${result.text.slice(0, 300)}`);
      return result;
    };
    await cis('PUT', '/settings', settingsBody());

    // 1. Seed.
    const random = prng(20_260_405);
    const seed = await timed(async () => {
      const { rows, subs } = subcontractorRows((value) => deps.sealed.seal(value));
      await withTenant(db, TENANT, (trx) => insertRows(trx, 'subcontractors', rows));
      for (let from = 0; from < INVOICES; from += SEED_CHUNK) {
        const chunk: Record<string, unknown>[] = [];
        for (let i = from; i < Math.min(INVOICES, from + SEED_CHUNK); i++)
          chunk.push(invoiceRow(i, months, subs, random));
        await withTenant(db, TENANT, (trx) => insertRows(trx, 'invoices', chunk));
      }
      return subs;
    });
    const subs = seed.value;
    const vacuum = await timed(() => admin.query('VACUUM ANALYZE cis.invoices, cis.subcontractors'));
    const counts = (
      await inTenant((c) =>
        c.query<{ status: string; n: number }>(
          'SELECT status, count(*)::int AS n FROM cis.invoices GROUP BY status ORDER BY status',
        ),
      )
    ).rows;
    console.log(
      `\nseeded in ${fmt(seed.ms / 1_000)} s (${fmt((INVOICES / seed.ms) * 1_000, 0)} invoices/s), ` +
        `VACUUM ANALYZE ${fmt(vacuum.ms / 1_000)} s; ${counts.map((c) => `${c.status} ${c.n}`).join(', ')}`,
    );

    // 2. Invoice list.
    const cookie = await bffSession(`http://127.0.0.1:${bffPort}`, publicUrl, 'admin@demo.test');
    const searchTerm = 'Slate';
    const variants = [
      { name: 'page 1', query: 'page=1&pageSize=50', where: '', params: [] as string[] },
      {
        name: `search '${searchTerm}'`,
        query: `page=1&pageSize=50&search=${searchTerm}`,
        where: ' AND (invoice_number ILIKE $1 OR subcontractor_name ILIKE $1)',
        params: [`%${searchTerm}%`],
      },
      {
        name: 'status draft',
        query: 'page=1&pageSize=50&status=draft',
        where: " AND status = 'draft'",
        params: [],
      },
    ];
    const listLoads: Load[] = [];
    for (const variant of variants) {
      const page = `SELECT * FROM cis.invoices WHERE deleted_at IS NULL${variant.where}
        ORDER BY invoice_date DESC, created_at DESC, id DESC LIMIT 50 OFFSET 0`;
      const count = `SELECT count(*) AS count FROM cis.invoices WHERE deleted_at IS NULL${variant.where}`;
      const month = currentTaxMonth();
      const summary = `SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'draft')::int AS draft,
          count(*) FILTER (WHERE status = 'approved')::int AS approved,
          coalesce(sum(cis_deduction_p) FILTER (WHERE status = 'paid' AND tax_month = '${month}'), 0)::bigint AS this_month,
          count(*) FILTER (WHERE status IN ('approved', 'paid') AND statement_required AND statement_issued_at IS NULL)::int AS pending
        FROM cis.invoices WHERE deleted_at IS NULL`;
      if (EXPLAIN)
        for (const [label, text] of [
          ['page', page],
          ['count', count],
          ['summary', summary],
        ] as const) {
          const plan = await inTenant((c) =>
            c.query<{ 'QUERY PLAN': string }>(
              `EXPLAIN (ANALYZE, BUFFERS) ${text}`,
              label === 'summary' ? [] : variant.params,
            ),
          );
          console.log(`\nEXPLAIN ${variant.name}, ${label}:`);
          for (const row of plan.rows) console.log(`  ${row['QUERY PLAN']}`);
        }
      listLoads.push(
        await httpLoad(
          `bff  GET /api/cis/invoices, ${variant.name}`,
          `http://127.0.0.1:${bffPort}/api/cis/invoices?${variant.query}`,
          { cookie },
        ),
      );
      if (variant.name === 'page 1')
        listLoads.push(
          await httpLoad(
            `bff  GET /api/cis/invoices, ${variant.name}, 1 connection [info]`,
            `http://127.0.0.1:${bffPort}/api/cis/invoices?${variant.query}`,
            { cookie },
            1,
          ),
          await httpLoad(
            `cis  GET /v1/invoices, ${variant.name} [info]`,
            `${h.cisUrl}/v1/invoices?${variant.query}`,
            { authorization: `Bearer ${token}` },
          ),
        );
      listLoads.push(
        await loopLoad(`SQL  the page's SELECT, ${variant.name}`, () =>
          inTenant((c) => c.query(page, variant.params)),
        ),
      );
      listLoads.push(
        await loopLoad(`SQL  page + count + summary, ${variant.name} [info]`, () =>
          inTenant(async (c) => {
            await c.query(page, variant.params);
            await c.query(count, variant.params);
            await c.query(summary);
          }),
        ),
      );
    }
    for (const variant of variants) {
      const viaBff = listLoads.find((l) => l.name.startsWith('bff') && l.name.endsWith(variant.name));
      const bare = listLoads.find((l) => l.name === `SQL  the page's SELECT, ${variant.name}`);
      if (!viaBff || !bare) throw new Error('missing list results');
      figures.push({
        name: `invoice list via bff, ${variant.name}: p95`,
        figure: `${fmt(viaBff.p95)} ms`,
        baseline: `${fmt(bare.p95)} ms`,
        ratio: viaBff.p95 / bare.p95,
        target: `< ${TARGETS.listP95Ms} ms`,
        met: viaBff.p95 < TARGETS.listP95Ms,
      });
    }

    // 3. Return compile of the month with 5,000 paid invoices.
    const paidInMonth = (
      await inTenant((c) =>
        c.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM cis.invoices WHERE deleted_at IS NULL AND status = 'paid' AND tax_month = $1`,
          [target],
        ),
      )
    ).rows[0]?.n;
    const compiles: number[] = [];
    let lines = 0;
    for (let run = 0; run < 3; run++) {
      const { ms, value } = await timed(() => cis('POST', `/returns/${target}/compile`));
      compiles.push(ms);
      lines = ((value.body.return as { lines?: unknown[] } | undefined)?.lines ?? []).length;
    }
    const aggregates: number[] = [];
    for (let run = 0; run < 3; run++)
      aggregates.push(
        (
          await timed(() =>
            inTenant((c) =>
              c.query(
                `SELECT subcontractor_id, count(*), sum(gross_p) AS gross_p, sum(materials_p) AS materials_p,
                   sum(cis_deduction_p) AS cis_deduction_p FROM cis.invoices
                 WHERE deleted_at IS NULL AND status = 'paid' AND tax_month = $1 GROUP BY subcontractor_id`,
                [target],
              ),
            ),
          )
        ).ms,
      );
    figures.push({
      name: `return compile, ${paidInMonth ?? '?'} paid invoices, ${lines} lines (median of 3)`,
      figure: `${fmt(median(compiles), 0)} ms`,
      baseline: `${fmt(median(aggregates), 1)} ms`,
      ratio: median(compiles) / median(aggregates),
      target: `< ${TARGETS.compileMs / 1_000} s`,
      met: median(compiles) < TARGETS.compileMs,
    });

    // 4. Bulk approve of 1,000 drafts; the bare UPDATE approves 1,000 others.
    const drafts = (
      await inTenant((c) =>
        c.query<{ id: string }>(
          `SELECT id FROM cis.invoices WHERE deleted_at IS NULL AND status = 'draft' ORDER BY invoice_number LIMIT $1`,
          [APPROVE_COUNT * 2],
        ),
      )
    ).rows.map((row) => row.id);
    const approve = await timed(() =>
      cis('POST', '/invoices/approve', { ids: drafts.slice(0, APPROVE_COUNT) }),
    );
    const approved = (approve.value.body.succeeded as string[] | undefined)?.length ?? 0;
    if (approved !== APPROVE_COUNT) throw new Error(`bulk approve approved ${approved} of ${APPROVE_COUNT}`);
    const update = await timed(() =>
      inTenant((c) =>
        c.query(
          `UPDATE cis.invoices SET status = 'approved', approved_at = now(), approved_by = $2, locked_at = now(),
             statement_required = cis_deduction_p > 0, updated_at = now(), updated_by = $2
           WHERE id = ANY($1::uuid[]) AND status = 'draft' AND deleted_at IS NULL`,
          [drafts.slice(APPROVE_COUNT), ACTOR],
        ),
      ),
    );
    figures.push({
      name: `bulk approve, ${APPROVE_COUNT} drafts`,
      figure: `${fmt(approve.ms, 0)} ms`,
      baseline: `${fmt(update.ms, 1)} ms`,
      ratio: approve.ms / update.ms,
      target: '-',
      met: null,
    });

    // 5. CSV import; the bare insert writes the same rows (other numbers) in chunks of 1,000 as the route.
    const importRandom = prng(7);
    const csvLines = [
      'Invoice Number,Subcontractor,Invoice Date,Gross,Materials,VAT Rate,Reverse Charge,Description,Materials Justification',
    ];
    const bareRows: Record<string, unknown>[] = [];
    const importDate = dayOf(currentTaxMonth(), 6);
    const [y, m, d] = importDate.split('-');
    for (let i = 0; i < IMPORT_ROWS; i++) {
      const sub = subs[i % subs.length] as Sub;
      const amounts = randomAmounts(importRandom);
      const pounds = (pence: number) =>
        `"${(pence / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}"`;
      csvLines.push(
        [
          `IMP-${String(i + 1).padStart(6, '0')}`,
          `"${sub.name}"`,
          `${d ?? ''}/${m ?? ''}/${y ?? ''}`,
          pounds(amounts.grossP),
          pounds(amounts.materialsP),
          String(amounts.vatRate),
          amounts.reverseCharge ? 'Yes' : 'No',
          'Imported works',
          '',
        ].join(','),
      );
      bareRows.push({
        id: randomUUID(),
        tenant_id: TENANT,
        invoice_number: `BARE-${String(i + 1).padStart(6, '0')}`,
        subcontractor_id: sub.id,
        subcontractor_name: sub.name,
        status: 'draft',
        source: 'import',
        invoice_date: importDate,
        description: 'Imported works',
        materials_justification: '',
        ...amountColumns(amounts, sub.rate),
        verification_reference: sub.reference,
        utr_masked: sub.utrMasked,
        nino_masked: sub.ninoMasked,
        created_by: ACTOR,
        updated_by: ACTOR,
      });
    }
    const csv = csvLines.join('\r\n');
    const parse = await timed(() => Promise.resolve(parseInvoiceCsv(csv)));
    if (parse.value.rows.length !== IMPORT_ROWS || parse.value.errors.length > 0)
      throw new Error(
        `the import CSV parsed to ${parse.value.rows.length} rows, ${parse.value.errors.length} errors`,
      );
    const imported = await timed(() => cis('POST', '/invoices/import', { csv }));
    const created = (imported.value.body.created as string[] | undefined)?.length ?? 0;
    const refusedRows = (imported.value.body.failed as { errors: string[] }[] | undefined) ?? [];
    if (created !== IMPORT_ROWS)
      throw new Error(
        `import created ${created} of ${IMPORT_ROWS}: ${JSON.stringify(refusedRows.slice(0, 3))}`,
      );
    const bareInsert = await timed(() =>
      withTenant(db, TENANT, async (trx) => {
        for (let from = 0; from < bareRows.length; from += 1_000)
          await insertRows(trx, 'invoices', bareRows.slice(from, from + 1_000));
      }),
    );
    figures.push({
      name: `CSV import, ${IMPORT_ROWS} rows (${fmt(Buffer.byteLength(csv) / 1_024, 0)} KiB)`,
      figure: `${fmt(imported.ms, 0)} ms`,
      baseline: `${fmt(bareInsert.ms, 0)} ms`,
      ratio: imported.ms / bareInsert.ms,
      target: `< ${TARGETS.importMs / 1_000} s`,
      met: imported.ms < TARGETS.importMs,
    });

    // The import's parse and row checks in process, beside csv-parse alone on the same text (median of 3 each).
    const checks: number[] = [];
    const bareParses: number[] = [];
    for (let run = 0; run < 3; run++) {
      const checked = await timed(() =>
        Promise.resolve(parseInvoiceCsv(csv).rows.map((row) => parseImportRow(row))),
      );
      const refused = checked.value.filter((row) => row.errors.length > 0).length;
      if (checked.value.length !== IMPORT_ROWS || refused > 0)
        throw new Error(`the import's row checks: ${checked.value.length} rows, ${refused} refused`);
      checks.push(checked.ms);
      bareParses.push((await timed(() => Promise.resolve(parseCsv(csv, { bom: true })))).ms);
    }
    figures.push({
      name: `CSV parse and row checks, ${IMPORT_ROWS} rows, in process (median of 3)`,
      figure: `${fmt(median(checks), 0)} ms`,
      baseline: `${fmt(median(bareParses), 0)} ms`,
      ratio: median(checks) / median(bareParses),
      target: `< ${TARGETS.parseMs / 1_000} s`,
      met: median(checks) < TARGETS.parseMs,
    });

    // CSV export of the imported invoices (their numbers start IMP-), beside the bare SELECT of the same rows
    // joined with commas (median of 3 each).
    const exports: number[] = [];
    const bareExports: number[] = [];
    let exportBytes = 0;
    for (let run = 0; run < 3; run++) {
      // A connection of its own (direct, as every call here): a pooled one left idle through the in-process loops
      // below would be closed by cis and reset the next request.
      const exported = await timed(() => cis('GET', '/invoices/export.csv?search=IMP-'));
      const exportedRows = exported.value.text.split('\r\n').filter((line) => line !== '').length - 1;
      if (exported.value.status !== 200 || exportedRows !== IMPORT_ROWS)
        throw new Error(`invoice export: ${exported.value.status}, ${exportedRows} rows`);
      exports.push(exported.ms);
      exportBytes = Buffer.byteLength(exported.value.text);
      bareExports.push(
        (
          await timed(() =>
            inTenant(async (c) => {
              const { rows } = await c.query<Record<string, unknown>>(
                `SELECT invoice_number, subcontractor_name, invoice_date, gross_p, materials_p, cis_deduction_p,
                   net_payment_p, status FROM cis.invoices
                 WHERE deleted_at IS NULL AND invoice_number LIKE 'IMP-%' ORDER BY invoice_date DESC, invoice_number`,
              );
              return rows.map((row) => Object.values(row).map(String).join(',')).join('\r\n');
            }),
          )
        ).ms,
      );
    }
    figures.push({
      name: `CSV export, ${IMPORT_ROWS} invoices (${fmt(exportBytes / 1_024, 0)} KiB; median of 3)`,
      figure: `${fmt(median(exports), 0)} ms`,
      baseline: `${fmt(median(bareExports), 0)} ms`,
      ratio: median(exports) / median(bareExports),
      target: `< ${TARGETS.exportMs / 1_000} s`,
      met: median(exports) < TARGETS.exportMs,
    });

    // 6. Statement PDFs.
    const statementIds: string[] = [];
    for (const sub of subs.filter((s) => s.rate > 0).slice(0, STATEMENTS)) {
      const generated = await cis('POST', '/statements/generate', {
        subcontractorId: sub.id,
        taxMonth: target,
      });
      statementIds.push((generated.body.statement as { id: string }).id);
    }
    const input: StatementPdfInput = await withTenant(db, TENANT, async (trx) =>
      statementPdfInput(
        deps,
        trx,
        TENANT,
        (await new StatementStore(trx).find(statementIds[0] ?? '')) as StatementRecord,
      ),
    );
    const pdfBytes = (await renderStatementPdf(input)).length;
    const emptyPdf = () =>
      new Promise<Buffer>((resolve, reject) => {
        const doc = new PDFDocument({ size: 'A4', compress: true });
        const chunks: Buffer[] = [];
        doc.on('data', (chunk: Buffer) => chunks.push(chunk));
        doc.on('end', () => {
          resolve(Buffer.concat(chunks));
        });
        doc.on('error', reject);
        doc.end();
      });
    const rendered = await loopLoad(
      `renderStatementPdf, ${input.invoices.length} invoices, in process`,
      () => renderStatementPdf(input),
      1,
    );
    const empty = await loopLoad('empty pdfkit document (A4, compressed), in process', emptyPdf, 1);
    const served = await loopLoad(
      `GET /v1/statements/:id/pdf, ${statementIds.length} statements, ${CONNECTIONS} connections`,
      async (i) => {
        const response = await fetch(
          `${h.cisUrl}/v1/statements/${statementIds[i % statementIds.length] ?? ''}/pdf`,
          {
            headers: { authorization: `Bearer ${token}` },
          },
        );
        const body = await response.arrayBuffer();
        if (response.status !== 200 || body.byteLength < 1_000)
          throw new Error(`statement PDF: ${response.status}`);
      },
    );
    figures.push(
      {
        name: `statement PDFs/s, renderStatementPdf (${fmt(pdfBytes / 1_024, 0)} KiB each)`,
        figure: `${fmt(rendered.perSecond, 0)}/s`,
        baseline: `${fmt(empty.perSecond, 0)}/s`,
        ratio: rendered.perSecond / empty.perSecond,
        target: '-',
        met: null,
      },
      {
        name: 'statement PDF, renderStatementPdf: p95 per document',
        figure: `${fmt(rendered.p95, 1)} ms`,
        baseline: `${fmt(empty.p95, 1)} ms`,
        ratio: rendered.p95 / empty.p95,
        target: `< ${TARGETS.pdfP95Ms} ms`,
        met: rendered.p95 < TARGETS.pdfP95Ms,
      },
      {
        name: 'statement PDFs/s, GET /v1/statements/:id/pdf',
        figure: `${fmt(served.perSecond, 0)}/s`,
        baseline: `${fmt(empty.perSecond, 0)}/s`,
        ratio: served.perSecond / empty.perSecond,
        target: '-',
        met: null,
      },
    );

    // Report.
    console.log('\ninvoice list (autocannon for HTTP, a loop of pg queries for SQL; latencies in ms):');
    printTable(['path', 'requests', 'req/s', 'p50', 'p95', 'p99'], listLoads.map(loadRow));
    console.log('\nstatement PDFs (latencies in ms):');
    printTable(['loop', 'documents', 'per s', 'p50', 'p95', 'p99'], [rendered, empty, served].map(loadRow));
    console.log('\ndetails:');
    for (const line of [
      `seed: ${fmt(seed.ms / 1_000)} s for ${SUBCONTRACTORS} subcontractors and ${INVOICES} invoices (no target)`,
      `compile runs (ms): ${compiles.map((ms) => fmt(ms, 0)).join(', ')}; bare aggregate: ${aggregates.map((ms) => fmt(ms, 1)).join(', ')}`,
      `import: parseInvoiceCsv alone ${fmt(parse.ms, 0)} ms [info]; ${created} created`,
      `CSV row checks runs (ms): ${checks.map((ms) => fmt(ms, 0)).join(', ')}; csv-parse alone: ${bareParses.map((ms) => fmt(ms, 0)).join(', ')}`,
      `CSV export runs (ms): ${exports.map((ms) => fmt(ms, 0)).join(', ')}; bare SELECT and join: ${bareExports.map((ms) => fmt(ms, 0)).join(', ')}`,
    ])
      console.log(`  ${line}`);
    console.log('\nfigures:');
    printTable(
      ['measure', 'figure', 'baseline', 'ratio', 'target', ''],
      figures.map((f) => [
        f.name,
        f.figure,
        f.baseline,
        `${fmt(f.ratio, 1)}x`,
        f.target,
        f.met === null ? 'info' : f.met ? 'met' : 'not met',
      ]),
    );
    console.log('\nhow measured:');
    for (const line of [
      'identity, notification, cis and the load generators run in this process, the bff in its own (as deployed);',
      'PostgreSQL and Kafka share the same CPUs, so absolute figures carry that noise. Baselines: the list',
      "page's SELECT on a plain pg pool in a tenant transaction (same concurrency); the bare GROUP BY of the",
      "compiled month; one UPDATE of 1,000 other drafts; the import's rows inserted bare in 1,000-row statements;",
      "csv-parse alone on the import's text; the exported rows selected bare and joined with commas; an empty",
      'pdfkit document. Ratio = figure / baseline (for PDFs/s: rate / empty-document rate).',
    ])
      console.log(`  ${line}`);
    console.log(`  time: ${fmt((performance.now() - started) / 1_000)} s`);
  } finally {
    await admin.end().catch(() => undefined);
    await sql.end().catch(() => undefined);
    await bff.stop();
    await h.stop();
  }
}

try {
  await main();
} catch (error) {
  console.error(
    `cis benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  if (error instanceof Error && error.cause !== undefined) console.error('cause:', error.cause);
  process.exitCode = 1;
}
