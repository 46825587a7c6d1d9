import { randomBytes } from 'node:crypto';
import { provisionServiceSchema, remoteJwks, startService, type StartedService } from '@workspace/kit';
import {
  callService,
  ControlledClock,
  createTestIssuer,
  eventually,
  serviceTestEnv,
  startGroupAtTopicEnd,
  type TestIssuer,
} from '@workspace/kit/testing';
import {
  notificationConfigSchema,
  NotificationClient,
  type NotificationConfig,
  startNotificationService,
  startSmtpSink,
  type RunningSmtpSink,
} from '@workspace/notification';
import { notificationTestEnv, provisionNotificationSchema } from '@workspace/notification/testing';
import type { JWTVerifyGetKey } from 'jose';
import pg from 'pg';
import {
  demoSeed,
  freePort,
  INTERNAL_TOKEN as IDENTITY_INTERNAL_TOKEN,
  internalPost,
  signIn,
  startIdentityHarness,
  type IdentityHarness,
} from '@workspace/identity/testing';
import { fillIdentityHashes } from '../src/commands/subcontractor-identity.js';
import { cisConfigSchema, type CisConfig } from '../src/config.js';
import { CIS_FINE_SCOPES, CIS_MANAGE_SCOPE } from '../src/domain/index.js';
import { cisService, type CisService } from '../src/service.js';

export const NOTIFICATION_TOKEN = randomBytes(24).toString('hex');
/** The token the drive sends for the documents it files (drive ADR 0046). */
export const CIS_DOCUMENTS_TOKEN = randomBytes(24).toString('hex');

export interface CisHarness {
  identity: IdentityHarness;
  sink: RunningSmtpSink;
  /** The notification service (with in-app notifications from the events when the harness was asked for them). */
  notification: StartedService<NotificationConfig>;
  notificationUrl: string;
  cis: StartedService<CisConfig>;
  definition: CisService;
  cisUrl: string;
  issuer: TestIssuer;
  /** The business clock cis reads (the machine's time unless the test sets it). */
  clock: ControlledClock;
  /** A token from the test issuer with exactly these scopes (tenant 'demo' unless named). */
  token(scopes: string[], tenantId?: string, userId?: string): Promise<string>;
  /** An access token of a seeded demo user, signed in through the real OIDC flow at identity. */
  signInAs(email: string): Promise<string>;
  call(
    token: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown>; text: string; headers: Headers }>;
  stop(): Promise<void>;
}

/**
 * Real PostgreSQL and Kafka; identity (with the dev IdP, seeded demo and acme tenants), notification with a real
 * SMTP sink, and cis, each in its own schema of one test database. cis accepts identity's tokens and those of a
 * local test issuer (to prove each scope), both with the product's issuer and audience.
 */
export async function startCisHarness(
  options: {
    publicUrl?: string;
    clock?: ControlledClock;
    /** notification makes in-app notifications from the events (ADR 0052), in a consumer group of its own. */
    inAppNotifications?: boolean;
  } = {},
): Promise<CisHarness> {
  const clock = options.clock ?? new ControlledClock(new Date());
  // cis's port is chosen first: identity sends the sign-in links subcontractors ask for through cis (ADR 0055).
  const cisPort = await freePort();
  const identity = await startIdentityHarness({
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    config: {
      CIS_URL: `http://127.0.0.1:${cisPort}`,
      PORTAL_LINK_REQUEST_POLL_MS: '200',
      // A group of this run's own: this identity ends the portal sessions of this run's subcontractors.
      PORTAL_ACCESS_CONSUMER_GROUP: `identity-portal-access-test-${randomBytes(4).toString('hex')}`,
    },
  });
  const sink = await startSmtpSink();
  const adminUrl = identity.database.adminUrl;
  const notificationRoles = await provisionNotificationSchema(adminUrl);
  const inAppGroup = `notification-inapp-test-${randomBytes(4).toString('hex')}`;
  // The group reads every event published from now on (the topics' ends committed before it joins).
  if (options.inAppNotifications) {
    for (const topic of ['cis.events.v1', 'drive.events.v1']) await startGroupAtTopicEnd(inAppGroup, topic);
  }
  const notificationConfig = notificationConfigSchema.parse({
    ...serviceTestEnv(notificationRoles),
    ...notificationTestEnv(sink),
    INTERNAL_API_TOKEN: NOTIFICATION_TOKEN,
    DELIVERY_BACKOFF_MS: '200,400',
    DELIVERY_POLL_INTERVAL_MS: '100',
    ...(options.inAppNotifications
      ? {
          IDENTITY_URL: identity.baseUrl,
          IDENTITY_TOKEN: IDENTITY_INTERNAL_TOKEN,
          INAPP_CONSUMER_GROUP: inAppGroup,
        }
      : {}),
  });
  const issuer = await createTestIssuer();
  const identityKeys = remoteJwks(`${identity.baseUrl}/.well-known/jwks.json`);
  const keys: JWTVerifyGetKey = (header, token) =>
    header.kid === 'test' ? issuer.keys(header, token) : identityKeys(header, token);
  const notification = await startNotificationService(notificationConfig, { keys, clock });
  const notificationUrl = `http://127.0.0.1:${notification.port}`;
  const cisRoles = await provisionServiceSchema(adminUrl, {
    schema: 'cis',
    extensions: ['pg_trgm'],
    role: 'svc_cis',
    password: 'cis-test',
    ownerPassword: 'cis-owner-test',
  });
  const config = cisConfigSchema.parse({
    ...serviceTestEnv(cisRoles),
    PORT: String(cisPort),
    CIS_ENCRYPTION_KEYS: `c1:${randomBytes(32).toString('base64')}`,
    CIS_IDENTIFIER_HASH_KEY: randomBytes(32).toString('base64'),
    IDENTITY_URL: identity.baseUrl,
    NOTIFICATION_URL: notificationUrl,
    NOTIFICATION_TOKEN,
    CIS_TESTING_TOOLS: 'true',
    CIS_JOB_POLL_MS: '200',
    CIS_DOCUMENTS_TOKEN,
  });
  const mailer = new NotificationClient({
    baseUrl: config.NOTIFICATION_URL,
    internalToken: NOTIFICATION_TOKEN,
  });
  const definition = cisService(config, mailer, { clock });
  const cis = await startService(definition, config, { keys });
  const cisUrl = `http://127.0.0.1:${cis.port}`;
  return {
    identity,
    sink,
    notification,
    notificationUrl,
    cis,
    definition,
    cisUrl,
    issuer,
    clock,
    token: (scopes, tenantId = 'demo', userId = '00000000-0000-4000-8000-0000000000aa') =>
      issuer.token({ tenantId, userId, scopes }),
    signInAs: async (email) => {
      const result = await signIn(identity, 'demo', email, demoSeed.password);
      const accessToken = result.body.accessToken;
      if (typeof accessToken !== 'string') throw new Error(`sign-in failed for ${email}: ${result.status}`);
      return accessToken;
    },
    call: (token, method, path, body) => callService(`${cisUrl}/v1${path}`, token, method, body),
    stop: async () => {
      await cis.shutdown();
      await notification.shutdown();
      await sink.close();
      await identity.stop();
    },
  };
}

/** Every fine CIS scope and cis.manage (the cis-admin template's). */
export const ALL_CIS_SCOPES: string[] = [...CIS_FINE_SCOPES, CIS_MANAGE_SCOPE];

/** The user id of the tests' CIS administrator (a test-issuer token with every CIS scope in tenant demo). */
export const CIS_ADMIN_ID = '00000000-0000-4000-8000-0000000000ad';

/** A started harness and a token of the tests' CIS administrator (CIS_ADMIN_ID), for a test file's beforeAll. */
export async function startCisHarnessWithAdmin(
  options: { publicUrl?: string; clock?: ControlledClock } = {},
): Promise<{ h: CisHarness; admin: string }> {
  const h = await startCisHarness(options);
  return { h, admin: await h.token(ALL_CIS_SCOPES, 'demo', CIS_ADMIN_ID) };
}

/**
 * A test file's harness and CIS administrator: started before its tests, stopped after them. `use` receives both
 * once started, for the file's own variables and any further set-up.
 */
export function useCisHarnessWithAdmin(
  use: (started: { h: CisHarness; admin: string }) => void | Promise<void>,
): void {
  let h: CisHarness | undefined;
  beforeAll(async () => {
    const started = await startCisHarnessWithAdmin();
    h = started.h;
    await use(started);
  });
  afterAll(async () => {
    await h?.stop();
  });
}

/** Valid, active CIS settings for PUT /settings (Demo Construction Ltd, standard VAT, 3 warning and 14 deadline days). */
export function settingsBody(overrides: Record<string, unknown> = {}) {
  return {
    active: true,
    companyName: 'Demo Construction Ltd',
    employerRef: '123/AB12345',
    accountsOfficeRef: '123PA00012345',
    utr: '2325648152',
    vatScheme: 'standard',
    emailStatements: true,
    warningDays: 3,
    statementDeadlineDays: 14,
    emailFrom: '',
    emailReplyTo: 'accounts@demo.test',
    statementFooter: '',
    ...overrides,
  };
}

/** A valid subcontractor for the create form (individual, 20 %). */
export function subcontractorBody(overrides: Record<string, unknown> = {}) {
  return {
    type: 'individual',
    name: 'Dave Brick',
    utr: '1234567890',
    nino: 'AB123456C',
    email: 'dave@brick.test',
    phone: '07700900123',
    registeredAddress: { line1: '1 High Street', city: 'Leeds', postcode: 'LS1 1AA', country: 'GB' },
    gdprConsent: true,
    ...overrides,
  };
}

/**
 * Fills in the identifier hashes of the tenants in the backlog now, as cis does when it starts (migration 008): for
 * tests that store records as an earlier version could (duplicates, no hashes) and queue their tenant.
 */
export function fillIdentityHashesNow(h: CisHarness): Promise<number> {
  return fillIdentityHashes(h.definition.deps());
}

let identifierSerial = Math.floor(Math.random() * 500_000);

/**
 * A UTR (HMRC's check digit right) and a NINO no other subcontractor of this test process has: an active
 * subcontractor's identifiers are unique in a tenant (ADR 0039), so each one a test makes gets its own.
 */
export function freshIdentifiers(): { utr: string; nino: string } {
  identifierSerial += 1;
  const body = String(100_000_000 + identifierSerial);
  const weights = [6, 7, 8, 9, 10, 5, 4, 3, 2];
  const sum = body.split('').reduce((total, digit, i) => total + Number(digit) * (weights[i] ?? 0), 0);
  const check = [2, 1, 9, 8, 7, 6, 5, 4, 3, 2, 1][sum % 11] ?? 2;
  return { utr: `${check}${body}`, nino: `JX${String(identifierSerial).padStart(6, '0')}A` };
}

/**
 * Creates a subcontractor (subcontractorBody with fresh identifiers and the overrides) and answers its id; anything
 * but 201 throws.
 */
export async function createSubcontractor(
  h: CisHarness,
  token: string,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const created = await h.call(
    token,
    'POST',
    '/subcontractors',
    subcontractorBody({ ...freshIdentifiers(), ...overrides }),
  );
  if (created.status !== 201) throw new Error(`creating a subcontractor: ${created.status} ${created.text}`);
  return (created.body.subcontractor as { id: string }).id;
}

/** A valid invoice for the create form: 10 November 2026, £1,000 gross with £200 materials, 20 % VAT, brickwork. */
export function invoiceBody(subcontractorId: string, overrides: Record<string, unknown> = {}) {
  return {
    invoiceNumber: 'INV-1',
    subcontractorId,
    invoiceDate: '2026-11-10',
    grossP: 100000,
    materialsP: 20000,
    vatRate: 20,
    reverseCharge: false,
    description: 'Brickwork',
    materialsJustification: '',
    ...overrides,
  };
}

/** One query as the test database's administrator (row-level security does not apply): to read stored rows. */
export async function adminQuery(
  h: CisHarness,
  text: string,
  params: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: h.identity.database.adminUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/**
 * Queries as the cis service's own runtime role (the one its pool uses), in one transaction whose row-level
 * security tenant is `tenantId` (as the service's withTenant sets it), or with none set when null.
 */
export async function serviceRoleQuery(
  h: CisHarness,
  tenantId: string | null,
  work: (query: (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>) => Promise<void>,
): Promise<void> {
  const client = new pg.Client({ connectionString: h.cis.deps.config.DATABASE_URL });
  await client.connect();
  try {
    await client.query('BEGIN');
    if (tenantId !== null) await client.query("SELECT set_config('app.tenant_id', $1, true)", [tenantId]);
    await work(
      async (text, params = []) => (await client.query(text, params)).rows as Record<string, unknown>[],
    );
    await client.query('ROLLBACK');
  } finally {
    await client.end();
  }
}

/** Waits until every queued background job (statement generation) has run. */
export async function drainJobQueue(h: CisHarness, timeoutMs = 30_000): Promise<void> {
  await eventually(
    async () => {
      const [row] = await adminQuery(h, 'SELECT count(*)::int AS n FROM cis.job_queue');
      return row?.n === 0;
    },
    timeoutMs,
    'the job queue to drain',
  );
}

/** The stored row of a cis table as JSON (numbers for bigint and numeric, dates as text), or undefined. */
export async function storedRow(
  h: CisHarness,
  table: 'settings' | 'subcontractors' | 'invoices' | 'statements' | 'returns' | 'jobs',
  where: Record<string, string>,
): Promise<Record<string, unknown> | undefined> {
  const keys = Object.keys(where);
  const [row] = await adminQuery(
    h,
    `SELECT to_jsonb(t) AS row FROM cis.${table} t WHERE ${keys.map((key, i) => `${key} = $${i + 1}`).join(' AND ')}`,
    keys.map((key) => where[key]),
  );
  return row?.row as Record<string, unknown> | undefined;
}

/** Invites the subcontractor (tenant demo) and redeems the link: a live portal token of theirs. */
export async function portalTokenOf(
  h: CisHarness,
  inviter: string,
  subcontractorId: string,
): Promise<string> {
  const invite = await h.call(inviter, 'POST', '/subcontractors/invite', { subcontractorId });
  if (invite.status !== 200) throw new Error(`invite failed: ${invite.status} ${invite.text}`);
  const token = new URL(String(invite.body.magicLink)).searchParams.get('token');
  const redeemed = await internalPost(h.identity, '/v1/portal/links/redeem', { tenantId: 'demo', token });
  if (redeemed.status !== 200) throw new Error(`redeem failed: ${redeemed.status}`);
  return ((await redeemed.json()) as { accessToken: string }).accessToken;
}

/**
 * The body of POST /returns/:id/submit for a return with payments: the three declarations ticked (issue 13; a submit
 * without them is refused).
 */
export const DECLARED = {
  declarations: { employmentStatus: true, verification: true, informationCorrect: true },
} as const;

/** The body of POST /returns/:id/submit for a nil return: information correct ticked, no inactivity. */
export const NIL_DECLARED = { declarations: { informationCorrect: true } } as const;
