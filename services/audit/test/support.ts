import { randomBytes, randomUUID } from 'node:crypto';
import {
  cloudEventHeaders,
  createBus,
  createLogger,
  eventKey,
  eventSource,
  provisionServiceSchema,
  remoteJwks,
  startService,
  type EventBus,
  type StartedService,
} from '@workspace/kit';
import {
  callService,
  ControlledClock,
  createTestDatabase,
  createTestIssuer,
  serviceTestEnv,
  startGroupAtTopicEnd,
  testInfra,
  type ServiceAnswer,
  type TestDatabase,
  type TestIssuer,
} from '@workspace/kit/testing';
import { generateKeyPairSync } from 'node:crypto';
import type { JWTVerifyGetKey } from 'jose';
import pg from 'pg';
import { auditConfigSchema, type AuditConfig } from '../src/config.js';
import { domainTopics } from '../src/events/domain-topics.js';
import { auditService, type AuditService } from '../src/service.js';

/** A fresh Ed25519 key pair for a harness's checkpoints (PKCS#8 and SPKI PEM). */
export function testCheckpointKey(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  };
}

/** audit's schema and roles in a test database (the names its migrations and deployments use). */
export function provisionAuditSchema(adminUrl: string) {
  return provisionServiceSchema(adminUrl, {
    schema: 'audit',
    role: 'svc_audit',
    password: 'audit-test',
    ownerPassword: 'audit-owner-test',
  });
}

export interface AuditHarness {
  database: TestDatabase;
  audit: StartedService<AuditConfig>;
  definition: AuditService;
  config: AuditConfig;
  baseUrl: string;
  issuer: TestIssuer;
  clock: ControlledClock;
  /** The public key of the harness's checkpoint key (SPKI PEM). */
  publicKeyPem: string;
  /** A token from the test issuer with exactly these scopes. */
  token(scopes: string[], tenantId: string, userId?: string): Promise<string>;
  call(token: string | undefined, method: string, path: string, body?: unknown): Promise<ServiceAnswer>;
  /** SQL as the database superuser (bypassing the service, its role and row-level security). */
  adminSql<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

export interface AuditHarnessOptions {
  /** An existing test database (e.g. the cis harness's identity database) instead of a new one. */
  database?: TestDatabase;
  env?: Record<string, string>;
  clock?: ControlledClock;
  /**
   * identity's base URL: the service then also accepts identity's real tokens (what the bff forwards), besides the
   * test issuer's (kid 'test').
   */
  identityUrl?: string;
}

/**
 * Real PostgreSQL and Kafka: the audit service in its own schema, its consumer group new and placed at the end of
 * every module topic first (so it reads what a test publishes, not what earlier runs left), checkpoints signed with
 * a fresh key, and a local test issuer for tokens with exactly the scopes a test names.
 */
export async function startAuditHarness(options: AuditHarnessOptions = {}): Promise<AuditHarness> {
  const clock = options.clock ?? new ControlledClock(new Date());
  const ownDatabase = options.database === undefined;
  const database = options.database ?? (await createTestDatabase('audit'));
  const roles = await provisionAuditSchema(database.adminUrl);
  const group = `audit-test-${randomBytes(5).toString('hex')}`;
  for (const topic of Object.keys(domainTopics())) await startGroupAtTopicEnd(group, topic);
  const key = testCheckpointKey();
  const config = auditConfigSchema.parse({
    ...serviceTestEnv(roles),
    AUDIT_CONSUMER_GROUP: group,
    AUDIT_CHECKPOINT_PRIVATE_KEY: key.privateKeyPem,
    // The workers run when a test calls them (a long interval keeps them out of the way).
    AUDIT_CHECKPOINT_INTERVAL_MS: String(24 * 3_600_000),
    AUDIT_CHAIN_CHECK_INTERVAL_MS: String(24 * 3_600_000),
    ...options.env,
  });
  const issuer = await createTestIssuer();
  const definition = auditService(config, { clock });
  const identityKeys = options.identityUrl
    ? remoteJwks(`${options.identityUrl}/.well-known/jwks.json`)
    : undefined;
  const keys: JWTVerifyGetKey = (header, token) =>
    header.kid === 'test' || !identityKeys ? issuer.keys(header, token) : identityKeys(header, token);
  const audit = await startService(definition, config, { keys, relayPollIntervalMs: 100 });
  const baseUrl = `http://127.0.0.1:${audit.port}`;
  return {
    database,
    audit,
    definition,
    config,
    baseUrl,
    issuer,
    clock,
    publicKeyPem: key.publicKeyPem,
    token: (scopes, tenantId, userId = '00000000-0000-4000-8000-0000000000aa') =>
      issuer.token({ tenantId, userId, scopes }),
    call: (token, method, path, body) => callService(`${baseUrl}/v1${path}`, token, method, body),
    adminSql: async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => {
      const client = new pg.Client({ connectionString: database.adminUrl });
      await client.connect();
      try {
        await client.query('SET search_path TO audit');
        return (await client.query<T>(sql, params)).rows;
      } finally {
        await client.end();
      }
    },
    stop: async () => {
      await audit.shutdown();
      if (ownDatabase) await database.drop();
    },
  };
}

/** A fresh tenant id per test, so entries of other tests (and other runs on the shared Kafka) never mix in. */
export const testTenant = (): string => `t-audit-${randomBytes(4).toString('hex')}`;

/** A Kafka producer for tests: publishes events as their module's outbox relay does (CloudEvents binary headers). */
export class ModuleEventPublisher {
  private constructor(private readonly bus: EventBus) {}

  static start(): Promise<ModuleEventPublisher> {
    const logger = createLogger({ name: 'audit-test-publisher', level: 'silent' });
    const config = auditConfigSchema.parse({
      DATABASE_URL: 'postgres://unused@127.0.0.1/unused',
      KAFKA_BROKERS: testInfra().kafkaBrokers,
    });
    return Promise.resolve(new ModuleEventPublisher(createBus('audit-test-publisher', config, logger)));
  }

  /** Publishes one event of `module` (its topic, its source) and answers its CloudEvents id. */
  async publish(
    module: string,
    type: string,
    tenantId: string,
    data: Record<string, unknown>,
    options: { id?: string; subject?: string; time?: Date } = {},
  ): Promise<string> {
    const [id] = await this.publishRun(module, [{ type, tenantId, data, ...options }]);
    return id ?? '';
  }

  /**
   * Publishes events of `module` in one send, in the given order (those of one tenant and subject on one partition,
   * so they reach the audit consumer as one run), and answers their CloudEvents ids.
   */
  async publishRun(
    module: string,
    events: {
      type: string;
      tenantId: string;
      data: Record<string, unknown>;
      id?: string;
      subject?: string;
      time?: Date;
    }[],
  ): Promise<string[]> {
    const messages = events.map(({ type, tenantId, data, ...options }) => {
      const id = options.id ?? randomUUID();
      const subject = options.subject ?? (typeof data.targetId === 'string' ? data.targetId : undefined);
      return {
        id,
        topic: `${module}.events.v1`,
        key: eventKey(tenantId, subject ?? 'x'),
        value: JSON.stringify(data),
        headers: cloudEventHeaders({
          id,
          type,
          source: eventSource(module),
          time: (options.time ?? new Date()).toISOString(),
          ...(subject === undefined ? {} : { subject }),
          tenantId,
        }),
      };
    });
    await this.bus.publish(messages.map(({ id: _id, ...message }) => message));
    return messages.map((message) => message.id);
  }

  close(): Promise<void> {
    return this.bus.close();
  }
}

/** A record read from audit.v1 by the test's own consumer: its key, headers and value. */
export interface AuditTopicRecord {
  key: string;
  partition: number;
  offset: string;
  headers: Record<string, string>;
  value: Record<string, unknown>;
}

/**
 * A plain Kafka consumer of audit.v1 (its own group, placed at the topic's end first), keeping every record it
 * reads: what an auditor's consumer sees.
 */
export class AuditTopicReader {
  readonly records: AuditTopicRecord[] = [];

  private constructor(private readonly stopConsumer: () => Promise<void>) {}

  static async start(): Promise<AuditTopicReader> {
    const { Kafka, logLevel } = await import('kafkajs');
    const group = `audit-test-reader-${randomBytes(5).toString('hex')}`;
    await startGroupAtTopicEnd(group, 'audit.v1');
    const kafka = new Kafka({
      clientId: group,
      brokers: testInfra().kafkaBrokers.split(','),
      logLevel: logLevel.NOTHING,
    });
    const consumer = kafka.consumer({ groupId: group });
    await consumer.connect();
    await consumer.subscribe({ topics: ['audit.v1'] });
    const reader: AuditTopicReader = new AuditTopicReader(() => consumer.disconnect());
    await consumer.run({
      eachMessage: ({ message, partition }) => {
        const headers = Object.fromEntries(
          Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)]),
        );
        reader.records.push({
          key: message.key?.toString() ?? '',
          partition,
          offset: message.offset,
          headers,
          value: JSON.parse(message.value?.toString() ?? '{}') as Record<string, unknown>,
        });
        return Promise.resolve();
      },
    });
    return reader;
  }

  /** The records of one tenant (by ce_tenantid), in the order read, whichever audit service published them. */
  ofTenant(tenantId: string): AuditTopicRecord[] {
    return this.records.filter((record) => record.headers.ce_tenantid === tenantId);
  }

  /**
   * The records of one tenant that `h`'s audit service published (their ce_id in its outbox), in the order read: the
   * audit services of other runs on the shared Kafka read the same module topics and publish their own records of
   * the same tenant on audit.v1.
   */
  async publishedBy(h: AuditHarness, tenantId: string): Promise<AuditTopicRecord[]> {
    const rows = await h.adminSql<{ event_id: string }>('SELECT event_id FROM outbox WHERE tenant_id = $1', [
      tenantId,
    ]);
    const ids = new Set(rows.map((row) => row.event_id));
    return this.ofTenant(tenantId).filter((record) => ids.has(record.headers.ce_id ?? ''));
  }

  stop(): Promise<void> {
    return this.stopConsumer();
  }
}
