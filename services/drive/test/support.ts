import { randomBytes } from 'node:crypto';
import { provisionServiceSchema, remoteJwks, startService, type StartedService } from '@workspace/kit';
import {
  callService,
  ControlledClock,
  createTestIssuer,
  serviceTestEnv,
  type TestIssuer,
} from '@workspace/kit/testing';
import { demoSeed, signIn, startIdentityHarness, type IdentityHarness } from '@workspace/identity/testing';
import { CIS_DOCUMENTS_TOKEN, startCisHarness, type CisHarness } from '@workspace/cis/testing';
import type { JWTVerifyGetKey } from 'jose';
import { ObjectStore } from '../src/clients/object-store.js';
import { driveConfigSchema, type DriveConfig } from '../src/config.js';
import { driveService, type DriveService } from '../src/service.js';

/** The local MinIO `make test` started (deploy/local/infra.sh env). */
export function testObjectStoreEnv() {
  const endpoint = process.env.TEST_MINIO_ENDPOINT;
  const accessKey = process.env.TEST_MINIO_ACCESS_KEY;
  const secretKey = process.env.TEST_MINIO_SECRET_KEY;
  if (!endpoint || !accessKey || !secretKey) {
    throw new Error(
      'TEST_MINIO_ENDPOINT is not set. Drive tests need the local MinIO: run `make test`, or ' +
        '`bash deploy/local/infra.sh up && eval "$(bash deploy/local/infra.sh env)"` before jest.',
    );
  }
  return {
    OBJECT_STORE_URL: endpoint,
    OBJECT_STORE_ACCESS_KEY: accessKey,
    OBJECT_STORE_SECRET_KEY: secretKey,
  };
}

export interface DriveHarness {
  identity: IdentityHarness;
  drive: StartedService<DriveConfig>;
  definition: DriveService;
  driveUrl: string;
  config: DriveConfig;
  issuer: TestIssuer;
  /** The drive's clock (the machine's time unless the test sets it). */
  clock: ControlledClock;
  /** The drive's object store (its own bucket per harness, so files of one test file never meet another's). */
  objects: ObjectStore;
  /** A token from the test issuer with exactly these scopes (tenant 'demo' unless named). */
  token(scopes: string[], tenantId?: string, userId?: string): Promise<string>;
  /** An access token of a seeded user, signed in through the real OIDC flow at identity. */
  signInAs(email: string, tenantId?: string): Promise<string>;
  call(
    token: string | undefined,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown>; text: string; headers: Headers }>;
  stop(): Promise<void>;
}

export interface DriveHarnessOptions {
  clock?: ControlledClock;
  /** Settings over the harness's own (e.g. DRIVE_REGION, FREE_SPACE_ON_SOFT_DELETE). */
  env?: Record<string, string>;
}

/**
 * Real PostgreSQL, Kafka and MinIO; identity (dev IdP, seeded demo tenant in uk and acme in eu) and the drive of
 * region uk, each in its own schema of one test database, the drive in a bucket of its own. The drive accepts
 * identity's tokens and those of a local test issuer (to prove each scope).
 */
export async function startDriveHarness(options: DriveHarnessOptions = {}): Promise<DriveHarness> {
  const clock = options.clock ?? new ControlledClock(new Date());
  const identity = await startIdentityHarness();
  const roles = await provisionServiceSchema(identity.database.adminUrl, {
    schema: 'drive',
    extensions: ['pg_trgm'],
    role: 'svc_drive',
    password: 'drive-test',
    ownerPassword: 'drive-owner-test',
  });
  const config = driveConfigSchema.parse({
    ...serviceTestEnv(roles),
    ...testObjectStoreEnv(),
    OBJECT_STORE_BUCKET: `t-drive-${randomBytes(5).toString('hex')}`,
    IDENTITY_URL: identity.baseUrl,
    DRIVE_REGION: 'uk',
    UPLOAD_CLEANUP_INTERVAL_MS: '200',
    ...options.env,
  });
  const issuer = await createTestIssuer();
  const identityKeys = remoteJwks(`${identity.baseUrl}/.well-known/jwks.json`);
  const keys: JWTVerifyGetKey = (header, token) =>
    header.kid === 'test' ? issuer.keys(header, token) : identityKeys(header, token);
  const objects = new ObjectStore(config);
  const definition = driveService(config, { clock, objects });
  const drive = await startService(definition, config, { keys });
  const driveUrl = `http://127.0.0.1:${drive.port}`;
  return {
    identity,
    drive,
    definition,
    driveUrl,
    config,
    issuer,
    clock,
    objects,
    token: (scopes, tenantId = 'demo', userId = '00000000-0000-4000-8000-0000000000dd') =>
      issuer.token({ tenantId, userId, scopes }),
    signInAs: async (email, tenantId = 'demo') => {
      const result = await signIn(identity, tenantId, email, demoSeed.password);
      const accessToken = result.body.accessToken;
      if (typeof accessToken !== 'string') throw new Error(`sign-in failed for ${email}: ${result.status}`);
      return accessToken;
    },
    call: (token, method, path, body, headers = {}) =>
      callService(`${driveUrl}${path.startsWith('/v1') ? '' : '/v1'}${path}`, token, method, body, headers),
    stop: async () => {
      await drive.shutdown();
      await identity.stop();
    },
  };
}

/** Every drive scope a drive administrator holds (drive.admin expanded, with the PII and signature scopes). */
export const DRIVE_ADMIN_SCOPES: string[] = [
  'drive.admin',
  'drive.manage',
  'drive.manage_all',
  'drive.view',
  'drive.read',
  'drive.write',
  'drive.drives.list',
  'drive.drives.create',
  'drive.drives.manage',
  'drive.share',
  'drive.libraries.create',
  'drive.libraries.manage',
  'drive.folders.create',
  'drive.folders.manage',
  'drive.file.upload',
  'drive.file.read',
  'drive.file.rename',
  'drive.file.move',
  'drive.file.replace_version',
  'drive.file.soft_delete',
  'drive.file.restore',
  'drive.file.hard_delete',
  'drive.file.share',
  'drive.attachment.add',
  'drive.attachment.remove',
  'drive.attachment.promote',
  'drive.attachment.resolve_access',
  'drive.exports.create',
  'drive.exports.share',
  'drive.exports.revoke',
  'drive.exports.view_audit',
  'drive.exports.template.manage',
  'drive.audit.read',
  'drive.signatures.view',
  'drive.signatures.create',
  'drive.signatures.sign',
  'drive.signatures.manage',
];

/** The user id of the tests' drive administrator. */
export const DRIVE_ADMIN_ID = '00000000-0000-4000-8000-0000000000dd';

/** The drive with cis beside it (ADR 0046), sharing one identity, one test issuer and one database. */
export interface DriveWithCisHarness {
  cis: CisHarness;
  drive: StartedService<DriveConfig>;
  definition: DriveService;
  config: DriveConfig;
  objects: ObjectStore;
  /** A test-issuer token both services accept (tenant 'demo' unless named). */
  token(scopes: string[], tenantId?: string, userId?: string): Promise<string>;
  /** A call to the drive (path under /v1). */
  call(
    token: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown>; text: string; headers: Headers }>;
  stop(): Promise<void>;
}

/**
 * cis (its harness: identity, notification, cis) and a drive that files cis's documents: the drive reaches cis with
 * the documents token, in a consumer group of its own that reads only what comes after it joins.
 */
export async function startDriveWithCis(
  options: {
    env?: Record<string, string>;
    /** Where the drive reaches cis (a test's proxy in front of it); default cis itself. */
    cisUrl?: (cisUrl: string) => Promise<string>;
    /** The drive's object store (a test's that fails on demand). */
    objects?: (config: DriveConfig) => ObjectStore;
    /** notification makes in-app notifications from cis's and the drive's events (ADR 0052). */
    inAppNotifications?: boolean;
  } = {},
): Promise<DriveWithCisHarness> {
  const cis = await startCisHarness({ inAppNotifications: options.inAppNotifications ?? false });
  const roles = await provisionServiceSchema(cis.identity.database.adminUrl, {
    schema: 'drive',
    extensions: ['pg_trgm'],
    role: 'svc_drive',
    password: 'drive-test',
    ownerPassword: 'drive-owner-test',
  });
  const config = driveConfigSchema.parse({
    ...serviceTestEnv(roles),
    ...testObjectStoreEnv(),
    OBJECT_STORE_BUCKET: `t-drive-${randomBytes(5).toString('hex')}`,
    IDENTITY_URL: cis.identity.baseUrl,
    DRIVE_REGION: 'uk',
    CIS_URL: options.cisUrl ? await options.cisUrl(cis.cisUrl) : cis.cisUrl,
    CIS_DOCUMENTS_TOKEN,
    CIS_DOCUMENTS_CONSUMER_GROUP: `drive-cis-documents-test-${randomBytes(4).toString('hex')}`,
    CIS_DOCUMENTS_FROM_BEGINNING: 'false',
    ...options.env,
  });
  const identityKeys = remoteJwks(`${cis.identity.baseUrl}/.well-known/jwks.json`);
  const keys: JWTVerifyGetKey = (header, token) =>
    header.kid === 'test' ? cis.issuer.keys(header, token) : identityKeys(header, token);
  const objects = options.objects ? options.objects(config) : new ObjectStore(config);
  const definition = driveService(config, { objects });
  const drive = await startService(definition, config, { keys });
  const driveUrl = `http://127.0.0.1:${drive.port}`;
  return {
    cis,
    drive,
    definition,
    config,
    objects,
    token: (scopes, tenantId = 'demo', userId = DRIVE_ADMIN_ID) =>
      cis.issuer.token({ tenantId, userId, scopes }),
    call: (token, method, path, body) => callService(`${driveUrl}/v1${path}`, token, method, body),
    stop: async () => {
      await drive.shutdown();
      await cis.stop();
    },
  };
}

// The places, files and PDFs the drive's folder and signature tests make, for other packages' tests (notification's).
export { insertFile, makePdf, makePlace } from './folders-fixtures.js';
