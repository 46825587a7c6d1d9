// What the drive's browser journeys share: the CIS stack (identity with the dev OIDC provider, notification, cis) plus
// the drive of region uk in a bucket of its own in the shared MinIO, and the bff in front of them serving the built
// bundles with the object store's origin in its CSP, so a browser PUTs upload parts to MinIO and shows its files
// (presigned URLs) as in production (ADR 0049). MinIO's CORS allows http://localhost:* (deploy/local/minio.sh).
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import type { RunningBff } from '@workspace/bff';
import { startCisHarness, type CisHarness } from '@workspace/cis/testing';
import { driveConfigSchema, driveService, type DriveConfig, type DriveService } from '@workspace/drive';
import { DRIVE_ADMIN_SCOPES, testObjectStoreEnv } from '@workspace/drive/testing';
import { provisionServiceSchema, remoteJwks, startService, type StartedService } from '@workspace/kit';
import { callService, serviceTestEnv, type ControlledClock } from '@workspace/kit/testing';
import type { JWTVerifyGetKey } from 'jose';
import { freeOrigin, launchChromium, prepareArtifacts, signInThroughPages, startTestBff } from './browser.js';

export { DRIVE_ADMIN_SCOPES };

/** A call of the drive's API as the stack's tests make it (their own seeding and checks). */
export interface DriveAnswer {
  status: number;
  body: Record<string, unknown>;
  text: string;
  headers: Headers;
}

export interface DriveBrowserStack {
  baseUrl: string;
  /** identity (tenants demo in uk and acme in eu), notification and cis, with their test issuer and clock. */
  harness: CisHarness;
  /** The drive service (region uk) and its settings: its own bucket, OBJECT_STORE_PUBLIC_URL the shared MinIO. */
  drive: StartedService<DriveConfig>;
  driveDefinition: DriveService;
  driveUrl: string;
  driveConfig: DriveConfig;
  bff: RunningBff;
  browser: Browser;
  /** A token from the test issuer with exactly these scopes (tenant 'demo' unless named); the drive accepts it. */
  token(scopes: string[], tenantId?: string, userId?: string): Promise<string>;
  /** An access token of a seeded demo user, through the real OIDC flow at identity. */
  signInAs(email: string): Promise<string>;
  /** The drive's API straight (path with or without /v1), as a test seeds or checks; redirects not followed. */
  driveCall(
    token: string | undefined,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<DriveAnswer>;
  /** A new browser context (en-GB, 1366×900, clipboard allowed) with a demo user signed in through the pages. */
  newPage(email: string): Promise<Page>;
  /** A new browser context with nobody signed in (a share link's visitor). */
  newSignedOutPage(): Promise<Page>;
  stop(): Promise<void>;
}

/**
 * The drive stack on a free local origin: one test database (a schema per service), the drive's own bucket, one
 * bff, one Chromium. With a `clock`, cis and the drive read it, and each new page's browser clock starts at its time.
 */
export async function startDriveBrowserStack(
  options: { clock?: ControlledClock; driveEnv?: Record<string, string>; inAppNotifications?: boolean } = {},
): Promise<DriveBrowserStack> {
  prepareArtifacts();
  const baseUrl = await freeOrigin();
  const harness = await startCisHarness({
    publicUrl: baseUrl,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.inAppNotifications ? { inAppNotifications: true } : {}),
  });
  const objectStore = testObjectStoreEnv();
  const roles = await provisionServiceSchema(harness.identity.database.adminUrl, {
    schema: 'drive',
    extensions: ['pg_trgm'],
    role: 'svc_drive',
    password: 'drive-test',
    ownerPassword: 'drive-owner-test',
  });
  const driveConfig = driveConfigSchema.parse({
    ...serviceTestEnv(roles),
    ...objectStore,
    // Browsers reach the shared MinIO where the tests do; the bff's CSP names it.
    OBJECT_STORE_PUBLIC_URL: objectStore.OBJECT_STORE_URL,
    OBJECT_STORE_BUCKET: `t-drive-web-${randomBytes(4).toString('hex')}`,
    IDENTITY_URL: harness.identity.baseUrl,
    DRIVE_REGION: 'uk',
    UPLOAD_CLEANUP_INTERVAL_MS: '1000',
    ...options.driveEnv,
  });
  const identityKeys = remoteJwks(`${harness.identity.baseUrl}/.well-known/jwks.json`);
  const keys: JWTVerifyGetKey = (header, token) =>
    header.kid === 'test' ? harness.issuer.keys(header, token) : identityKeys(header, token);
  const driveDefinition = driveService(driveConfig, { clock: harness.clock });
  const drive = await startService(driveDefinition, driveConfig, { keys });
  const driveUrl = `http://127.0.0.1:${drive.port}`;
  const bff = await startTestBff(baseUrl, harness.identity.baseUrl, {
    CIS_URL: harness.cisUrl,
    DRIVE_URL: driveUrl,
    NOTIFICATION_URL: harness.notificationUrl,
    OBJECT_STORE_PUBLIC_URL: new URL(objectStore.OBJECT_STORE_URL).origin,
  });
  const browser = await launchChromium();
  const newContext = async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-GB' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    if (options.clock) await context.clock.install({ time: options.clock.now() });
    return context;
  };
  return {
    baseUrl,
    harness,
    drive,
    driveDefinition,
    driveUrl,
    driveConfig,
    bff,
    browser,
    token: (scopes, tenantId, userId) => harness.token(scopes, tenantId, userId),
    signInAs: (email) => harness.signInAs(email),
    driveCall: (token, method, path, body, headers = {}) =>
      callService(`${driveUrl}${path.startsWith('/v1') ? '' : '/v1'}${path}`, token, method, body, headers),
    newPage: async (email) => {
      const page = await (await newContext()).newPage();
      await signInThroughPages(page, baseUrl, email);
      return page;
    },
    newSignedOutPage: async () => (await newContext()).newPage(),
    stop: async () => {
      await browser.close();
      await bff.shutdown();
      await drive.shutdown();
      await harness.stop();
    },
  };
}

/**
 * One drive stack for a test file (or, called inside a describe, for that describe): started before its tests (then
 * handed to `started`, which keeps what the tests use and seeds) and stopped after them.
 */
export function driveStackPerFile(
  started: (stack: DriveBrowserStack) => void | Promise<void>,
  options: { clock?: ControlledClock; driveEnv?: Record<string, string>; inAppNotifications?: boolean } = {},
): void {
  let stack: DriveBrowserStack | undefined;
  beforeAll(async () => {
    stack = await startDriveBrowserStack(options);
    await started(stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });
}
