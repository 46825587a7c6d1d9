import { randomUUID } from 'node:crypto';
import {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  Kafka,
  logLevel,
  ResourcePatternTypes,
  type AclEntry,
} from 'kafkajs';
import {
  baseConfigSchema,
  cloudEventHeaders,
  createBus,
  createLogger,
  loadConfig,
  type BusMessage,
  type DeliveredMessage,
  type EventBus,
} from '../../src/index.js';
import { eventually } from '../../src/testing/index.js';

/**
 * The kit's Kafka adapter against a real broker that speaks only SASL_SSL (SCRAM-SHA-512 over TLS) and mutual TLS,
 * and allows nothing without an ACL: deploy/local/kafka-auth.sh starts it (`make test-kafka-auth`). The users get the ACLs
 * the charts' KafkaUsers grant (charts/workspace-lib/templates/_kafka.tpl): Write, Describe and Create on the
 * service's own `<service>.events.v1`, Read and Describe on the topics it consumes and, when it consumes any,
 * Read on its `<service>-` consumer groups.
 */
const required = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this through 'make test-kafka-auth'`);
  return value;
};
const brokers = required('KAFKA_AUTH_BROKERS');
const mtlsBrokers = required('KAFKA_AUTH_MTLS_BROKERS');
const clientCertFile = required('KAFKA_AUTH_CLIENT_CERT_FILE');
const clientKeyFile = required('KAFKA_AUTH_CLIENT_KEY_FILE');
const caFile = required('KAFKA_AUTH_CA_FILE');
const otherCaFile = required('KAFKA_AUTH_OTHER_CA_FILE');
const usersDir = required('KAFKA_AUTH_USERS_DIR');

const logger = createLogger({ name: 'kafka-auth-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const buses: EventBus[] = [];

/** A service's bus as startService builds it: the kit's configuration read from the environment, then createBus. */
function busAs(user: string, env: Record<string, string | undefined> = {}): EventBus {
  const config = loadConfig(baseConfigSchema, {
    DATABASE_URL: 'postgres://unused@127.0.0.1/unused',
    KAFKA_BROKERS: brokers,
    KAFKA_TOPIC_PARTITIONS: '1',
    KAFKA_TLS: 'true',
    KAFKA_TLS_CA_FILE: caFile,
    KAFKA_SASL_MECHANISM: 'scram-sha-512',
    KAFKA_SASL_USERNAME: user,
    KAFKA_SASL_PASSWORD_FILE: `${usersDir}/${user}.password`,
    ...env,
  });
  const bus = createBus(`kafka-auth-test-${user}`, config, logger);
  buses.push(bus);
  return bus;
}

const allow = (
  user: string,
  resourceType: AclResourceTypes,
  resourceName: string,
  operations: AclOperationTypes[],
  resourcePatternType = ResourcePatternTypes.LITERAL,
): AclEntry[] =>
  operations.map((operation) => ({
    resourceType,
    resourceName,
    resourcePatternType,
    principal: `User:${user}`,
    host: '*',
    operation,
    permissionType: AclPermissionTypes.ALLOW,
  }));

/** The ACLs of one service's KafkaUser in the charts. */
const serviceAcls = (service: string, consumes: string[]): AclEntry[] => [
  ...allow(service, AclResourceTypes.TOPIC, `${service}.events.v1`, [
    AclOperationTypes.WRITE,
    AclOperationTypes.DESCRIBE,
    AclOperationTypes.CREATE,
  ]),
  ...consumes.flatMap((topic) =>
    allow(service, AclResourceTypes.TOPIC, topic, [AclOperationTypes.READ, AclOperationTypes.DESCRIBE]),
  ),
  ...(consumes.length === 0
    ? []
    : allow(
        service,
        AclResourceTypes.GROUP,
        `${service}-`,
        [AclOperationTypes.READ],
        ResourcePatternTypes.PREFIXED,
      )),
];

const event = (topic: string, source: string): BusMessage => ({
  topic,
  key: 'acme:1',
  value: JSON.stringify({ note: 'hello' }),
  headers: cloudEventHeaders({
    id: randomUUID(),
    type: 'testing.auth.checked',
    source,
    time: new Date().toISOString(),
    tenantId: 'acme',
  }),
});

beforeAll(async () => {
  // The cluster operator's part (Strimzi's User Operator in the charts): the admin user writes the ACLs.
  const { readFileSync } = await import('node:fs');
  const kafka = new Kafka({
    clientId: 'kafka-auth-test-admin',
    brokers: [brokers],
    ssl: { ca: [readFileSync(caFile, 'utf8')] },
    sasl: {
      mechanism: 'scram-sha-512',
      username: 'admin',
      password: readFileSync(`${usersDir}/admin.password`, 'utf8').trim(),
    },
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createAcls({
      acl: [
        ...serviceAcls('cis', []),
        ...serviceAcls('identity', ['cis.events.v1', 'identity.events.v1']),
        ...serviceAcls('notification', []),
      ],
    });
  } finally {
    await admin.disconnect();
  }
});

afterAll(async () => {
  await Promise.all(buses.map((bus) => bus.close()));
});

describe('Kafka over SASL_SSL and mutual TLS, with ACLs', () => {
  it('lets a service create and write its own topic, and the consumer read it in its own group', async () => {
    const cis = busAs('cis');
    const identity = busAs('identity');
    await cis.ensureTopics(['cis.events.v1']);
    expect(await cis.isReady()).toBe(true);

    const received: DeliveredMessage[] = [];
    const subscription = await identity.subscribe({
      groupId: 'identity-portal-access',
      topics: ['cis.events.v1'],
      handle: (message) => Promise.resolve(void received.push(message)),
    });
    const sent = event('cis.events.v1', '/workspace/cis');
    await cis.publish([sent]);
    await eventually(() => Promise.resolve(received.some((m) => m.headers.ce_id === sent.headers.ce_id)));
    await subscription.stop();
  });

  it('refuses a wrong password with an error that names the user and the settings to check', async () => {
    const cis = busAs('cis', {
      KAFKA_SASL_PASSWORD_FILE: undefined,
      KAFKA_SASL_PASSWORD: 'not-the-password',
    });
    const refusal = await cis.publish([event('cis.events.v1', '/workspace/cis')]).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    expect(refusal?.message).toBe(
      "Kafka refused the credentials of user 'cis' (to write to cis.events.v1): check KAFKA_SASL_USERNAME, its password and KAFKA_SASL_MECHANISM",
    );
    expect(refusal?.message).not.toContain('not-the-password');
    expect(await cis.isReady()).toBe(false);
  });

  it("refuses a service writing another service's topic, and reading a topic it does not consume", async () => {
    const notification = busAs('notification');
    await notification.ensureTopics(['notification.events.v1']);
    await notification.publish([event('notification.events.v1', '/workspace/notification')]);

    await expect(notification.publish([event('cis.events.v1', '/workspace/cis')])).rejects.toThrow(
      "Kafka user 'notification' may not write to cis.events.v1: TOPIC_AUTHORIZATION_FAILED (its ACLs do not grant the topic)",
    );
    const identity = busAs('identity');
    await expect(
      identity.subscribe({
        groupId: 'identity-snooping',
        topics: ['notification.events.v1'],
        handle: () => Promise.resolve(),
      }),
    ).rejects.toThrow(
      /^Kafka user 'identity' may not read notification\.events\.v1 as group identity-snooping/,
    );
  });

  it("authenticates by client certificate (mutual TLS), with the certificate's user's ACLs", async () => {
    // The broker's mutual TLS listener maps the certificate's CN=notification to User:notification.
    const notification = busAs('notification', {
      KAFKA_BROKERS: mtlsBrokers,
      KAFKA_TLS_CERT_FILE: clientCertFile,
      KAFKA_TLS_KEY_FILE: clientKeyFile,
      KAFKA_SASL_MECHANISM: undefined,
      KAFKA_SASL_USERNAME: undefined,
      KAFKA_SASL_PASSWORD_FILE: undefined,
    });
    await notification.ensureTopics(['notification.events.v1']);
    await notification.publish([event('notification.events.v1', '/workspace/notification')]);
    await expect(notification.publish([event('cis.events.v1', '/workspace/cis')])).rejects.toThrow(
      'this client may not write to cis.events.v1: TOPIC_AUTHORIZATION_FAILED (its ACLs do not grant the topic)',
    );
  });

  it('refuses a broker whose certificate is not from the configured CA', async () => {
    const cis = busAs('cis', { KAFKA_TLS_CA_FILE: otherCaFile });
    await expect(cis.publish([event('cis.events.v1', '/workspace/cis')])).rejects.toThrow(/certificate/);
  });
});
