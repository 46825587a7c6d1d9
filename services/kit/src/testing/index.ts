import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTVerifyGetKey } from 'jose';
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';

const run = promisify(execFile);

// Every service and bff a test starts checks its answers against the routes' response schemas (createServiceApp).
process.env.VALIDATE_RESPONSES ??= '1';

/**
 * Where the real infrastructure that `make test` started is. Tests run against real PostgreSQL, Kafka and MinIO;
 * without them they fail with this message instead of silently skipping.
 */
export function testInfra() {
  const required = (name: string): string => {
    const value = process.env[name];
    if (!value) {
      throw new Error(
        `${name} is not set. Integration tests need the local infrastructure: run 'make test', or ` +
          `'bash deploy/local/infra.sh up && eval "$(bash deploy/local/infra.sh env)"' before jest.`,
      );
    }
    return value;
  };
  return {
    databaseUrl: required('TEST_DATABASE_URL'),
    kafkaBrokers: required('TEST_KAFKA_BROKERS'),
    infraDir: required('WORKSPACE_INFRA_DIR'),
  };
}

/**
 * The settings every service a test starts shares: any free port, the tests' log level, the two connections of
 * its schema (what provisionServiceSchema answers), migrating at start, and the test Kafka.
 */
export function serviceTestEnv(roles: { databaseUrl: string; migrationUrl: string }) {
  return {
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: roles.databaseUrl,
    DATABASE_MIGRATION_URL: roles.migrationUrl,
    // A harness is one process: it migrates at start, as `make up` does (deployed services run the migrate step).
    MIGRATE_AT_START: 'true',
    KAFKA_BROKERS: testInfra().kafkaBrokers,
  };
}

/** Stops or starts one local infrastructure process (the tests that prove recovery use it). */
export async function infraCommand(
  component: 'postgres' | 'kafka' | 'minio',
  command: 'start' | 'stop',
): Promise<void> {
  await run('bash', [`${testInfra().infraDir}/${component}.sh`, command], { timeout: 180_000 });
}

export interface TestDatabase {
  /** Administrative (superuser) URL of the new database. */
  adminUrl: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh database per test file, so suites share one PostgreSQL process but no state. */
export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const base = testInfra().databaseUrl;
  const name = `t_${prefix.replace(/[^a-z0-9_]/g, '_')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    adminUrl: url.toString(),
    name,
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface TestIssuer {
  keys: JWTVerifyGetKey;
  issuer: string;
  audience: string;
  token(claims: {
    tenantId: string;
    userId?: string;
    role?: string;
    scopes: string[];
    expiresIn?: string;
  }): Promise<string>;
}

/** Signs RS256 access tokens shaped like identity's, verified through a local JWKS. */
export async function createTestIssuer(
  issuer = 'workspace-identity',
  audience = 'workspace',
): Promise<TestIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test', alg: 'RS256', use: 'sig' };
  return {
    keys: createLocalJWKSet({ keys: [jwk] }),
    issuer,
    audience,
    token: ({ tenantId, userId = 'user-1', role = 'standard', scopes, expiresIn = '5m' }) =>
      new SignJWT({ tid: tenantId, role, scp: scopes })
        .setProtectedHeader({ alg: 'RS256', kid: 'test', typ: 'at+jwt' })
        .setSubject(userId)
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(privateKey),
  };
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `Timed out after ${timeoutMs} ms waiting for ${what}${lastError instanceof Error ? `: ${lastError.message}` : ''}`,
  );
}

/**
 * Commits a consumer group's offsets at the end of `topic` as it is now (making the topic, 6 partitions, if it is
 * missing), before the group's consumer starts. A new group that reads only new messages (fromBeginning: false)
 * would otherwise start at whatever the end is when it has joined, a moment no test can see; committed here, it
 * reads every message published from now on, however long its join takes, so a test publishes once.
 */
export async function startGroupAtTopicEnd(groupId: string, topic: string): Promise<void> {
  const kafka = new Kafka({
    clientId: `test-${groupId}`,
    brokers: testInfra().kafkaBrokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic))
      await admin.createTopics({
        waitForLeaders: true,
        topics: [{ topic, numPartitions: 6, replicationFactor: 1 }],
      });
    const ends = await admin.fetchTopicOffsets(topic);
    await admin.setOffsets({
      groupId,
      topic,
      partitions: ends.map(({ partition, offset }) => ({ partition, offset })),
    });
  } finally {
    await admin.disconnect();
  }
}

/** Every API jest's fake timers can replace (the names its `doNotFake` option takes). */
export const FAKEABLE_APIS = [
  'Date',
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

/**
 * What `doNotFake` lists to fake one clock only (`'Date'` or `'performance'`): every other fakeable API, the timers
 * included, stays real, so a test that moves the clock keeps real timers and I/O.
 */
export function allFakeableBut(faked: 'Date' | 'performance'): Array<(typeof FAKEABLE_APIS)[number]> {
  return FAKEABLE_APIS.filter((api) => api !== faked);
}

/**
 * A business clock a test sets (`Clock` of the kit): the day a service believes it is, moved on by the test
 * instead of waited for. It runs on from the time set, so timestamps taken a moment apart still differ.
 */
export class ControlledClock {
  private offsetMs: number;

  constructor(start: Date) {
    this.offsetMs = start.getTime() - Date.now();
  }

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** From now on the clock reads `date` (and runs on from it). */
  set(date: Date): void {
    this.offsetMs = date.getTime() - Date.now();
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** A service's answer to a test's call: its status, its body parsed when it is JSON (else {}), its text and headers. */
export interface ServiceAnswer {
  status: number;
  body: Record<string, unknown>;
  text: string;
  headers: Headers;
}

/**
 * One call to a service under test at `url`, with a bearer token when given and a JSON body when given; redirects are
 * answered, not followed (a presigned download's 302 is the answer). A body that is not JSON (CSV, PDF, XML, a file's
 * bytes) is in `text`.
 */
export async function callService(
  url: string,
  token: string | undefined,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ServiceAnswer> {
  const response = await fetch(url, {
    method,
    redirect: 'manual',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON: the text is there.
  }
  return { status: response.status, body: parsed, text, headers: response.headers };
}
