import {
  baseConfigSchema,
  ConfigError,
  explainKafkaError,
  kafkaSecurity,
  loadConfig,
  untrustedEventReason,
} from '../src/index.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIBca\n-----END CERTIFICATE-----\n';
const CERT = '-----BEGIN CERTIFICATE-----\nMIIBclient\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIEkey\n-----END PRIVATE KEY-----\n';
const files: Record<string, string> = {
  '/etc/kafka/ca.crt': CA,
  '/etc/kafka/user.crt': CERT,
  '/etc/kafka/user.key': KEY,
  '/etc/kafka/password': 's3cret-from-file\n',
  '/etc/kafka/empty': '\n',
};
const readFile = (path: string): string => {
  const content = files[path];
  if (content === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
  return content;
};

/** The environment as the service reads it, through the kit's schema. */
const configOf = (env: Record<string, string>) =>
  loadConfig(baseConfigSchema, { DATABASE_URL: 'postgres://u@h/db', ...env });

const issuesOf = (env: Record<string, string>): string[] => {
  try {
    kafkaSecurity(configOf(env), readFile);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues;
  }
  throw new Error('expected a ConfigError');
};

describe('Kafka TLS and SASL settings -> kafkajs options', () => {
  it('is plaintext without any setting (the local broker)', () => {
    expect(kafkaSecurity(configOf({}), readFile)).toEqual({});
  });

  it('maps TLS with a CA, a server name and SCRAM-SHA-512 with the password from a file', () => {
    const security = kafkaSecurity(
      configOf({
        KAFKA_TLS: 'true',
        KAFKA_TLS_CA_FILE: '/etc/kafka/ca.crt',
        KAFKA_TLS_SERVERNAME: 'workspace-kafka-bootstrap.kafka.svc',
        KAFKA_SASL_MECHANISM: 'scram-sha-512',
        KAFKA_SASL_USERNAME: 'workspace-cis',
        KAFKA_SASL_PASSWORD_FILE: '/etc/kafka/password',
      }),
      readFile,
    );
    expect(security).toEqual({
      ssl: { rejectUnauthorized: true, ca: [CA], servername: 'workspace-kafka-bootstrap.kafka.svc' },
      sasl: { mechanism: 'scram-sha-512', username: 'workspace-cis', password: 's3cret-from-file' },
    });
  });

  it('maps mutual TLS (client certificate and key) and a password from the environment', () => {
    const security = kafkaSecurity(
      configOf({
        KAFKA_TLS: '1',
        KAFKA_TLS_CERT_FILE: '/etc/kafka/user.crt',
        KAFKA_TLS_KEY_FILE: '/etc/kafka/user.key',
        KAFKA_SASL_MECHANISM: 'scram-sha-256',
        KAFKA_SASL_USERNAME: 'svc',
        KAFKA_SASL_PASSWORD: 'from-env',
      }),
      readFile,
    );
    expect(security).toEqual({
      ssl: { rejectUnauthorized: true, cert: CERT, key: KEY },
      sasl: { mechanism: 'scram-sha-256', username: 'svc', password: 'from-env' },
    });
  });

  it('uses the system CAs when TLS is on without a CA file', () => {
    expect(kafkaSecurity(configOf({ KAFKA_TLS: 'true' }), readFile)).toEqual({
      ssl: { rejectUnauthorized: true },
    });
  });

  it('refuses TLS files without KAFKA_TLS, half a client pair, and SASL without TLS, naming each variable', () => {
    expect(
      issuesOf({
        KAFKA_TLS_CA_FILE: '/etc/kafka/ca.crt',
        KAFKA_TLS_CERT_FILE: '/etc/kafka/user.crt',
        KAFKA_SASL_MECHANISM: 'scram-sha-512',
        KAFKA_SASL_USERNAME: 'svc',
        KAFKA_SASL_PASSWORD: 'pw',
      }),
    ).toEqual([
      'KAFKA_TLS_CA_FILE: set KAFKA_TLS=true to use it',
      'KAFKA_TLS_CERT_FILE: set KAFKA_TLS=true to use it',
      'KAFKA_TLS_KEY_FILE: required with KAFKA_TLS_CERT_FILE (mutual TLS needs both)',
      'KAFKA_SASL_MECHANISM: needs KAFKA_TLS=true (the events would travel in clear)',
    ]);
  });

  it('refuses a mechanism without a user or password, both passwords, and credentials without a mechanism', () => {
    expect(issuesOf({ KAFKA_TLS: 'true', KAFKA_SASL_MECHANISM: 'scram-sha-512' })).toEqual([
      'KAFKA_SASL_USERNAME: required with KAFKA_SASL_MECHANISM',
      'KAFKA_SASL_PASSWORD_FILE: required with KAFKA_SASL_MECHANISM (or KAFKA_SASL_PASSWORD)',
    ]);
    expect(
      issuesOf({
        KAFKA_TLS: 'true',
        KAFKA_SASL_MECHANISM: 'scram-sha-512',
        KAFKA_SASL_USERNAME: 'svc',
        KAFKA_SASL_PASSWORD: 'pw',
        KAFKA_SASL_PASSWORD_FILE: '/etc/kafka/password',
      }),
    ).toEqual(['KAFKA_SASL_PASSWORD: set either it or KAFKA_SASL_PASSWORD_FILE, not both']);
    expect(issuesOf({ KAFKA_TLS: 'true', KAFKA_SASL_USERNAME: 'svc', KAFKA_SASL_PASSWORD: 'pw' })).toEqual([
      'KAFKA_SASL_USERNAME: set KAFKA_SASL_MECHANISM (scram-sha-512) to use it',
      'KAFKA_SASL_PASSWORD: set KAFKA_SASL_MECHANISM (scram-sha-512) to use it',
    ]);
  });

  it('refuses an unknown mechanism through the schema', () => {
    expect(() => configOf({ KAFKA_SASL_MECHANISM: 'plain' })).toThrow(/KAFKA_SASL_MECHANISM/);
  });

  it('names unreadable, empty and non-PEM files by path, never printing a password or key', () => {
    const issues = issuesOf({
      KAFKA_TLS: 'true',
      KAFKA_TLS_CA_FILE: '/etc/kafka/user.key',
      KAFKA_TLS_CERT_FILE: '/etc/kafka/missing.crt',
      KAFKA_TLS_KEY_FILE: '/etc/kafka/password',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'svc',
      KAFKA_SASL_PASSWORD_FILE: '/etc/kafka/empty',
    });
    expect(issues).toEqual([
      'KAFKA_TLS_CA_FILE: /etc/kafka/user.key is not a PEM certificate',
      'KAFKA_TLS_CERT_FILE: cannot read /etc/kafka/missing.crt (ENOENT)',
      'KAFKA_TLS_KEY_FILE: /etc/kafka/password is not a PEM private key',
      'KAFKA_SASL_PASSWORD_FILE: /etc/kafka/empty is empty',
    ]);
    const message = new ConfigError(issues).message;
    expect(message).not.toContain('s3cret-from-file');
    expect(message).not.toContain('MIIEkey');
  });
});

describe('Kafka refusals in the words of the configuration', () => {
  const protocolError = (type: string) => Object.assign(new Error('Not authorized'), { type });

  it('says the credentials were refused, without the password', () => {
    const refused = Object.assign(new Error('SASL SCRAM SHA512 authentication failed: invalid credentials'), {
      name: 'KafkaJSSASLAuthenticationError',
    });
    const wrapped = Object.assign(new Error('Connection error'), { originalError: refused });
    const explained = explainKafkaError(wrapped, 'workspace-cis', 'write to cis.events.v1') as Error;
    expect(explained.message).toBe(
      "Kafka refused the credentials of user 'workspace-cis' (to write to cis.events.v1): check KAFKA_SASL_USERNAME, its password and KAFKA_SASL_MECHANISM",
    );
    expect(explained.cause).toBe(wrapped);
  });

  it('says which ACL is missing', () => {
    const explained = explainKafkaError(
      Object.assign(new Error('retries exceeded'), { cause: protocolError('TOPIC_AUTHORIZATION_FAILED') }),
      'workspace-notification',
      'write to cis.events.v1',
    ) as Error;
    expect(explained.message).toBe(
      "Kafka user 'workspace-notification' may not write to cis.events.v1: TOPIC_AUTHORIZATION_FAILED (its ACLs do not grant the topic)",
    );
  });

  it('leaves other errors as they are', () => {
    const other = new Error('broker away');
    expect(explainKafkaError(other, 'svc', 'write')).toBe(other);
  });
});

describe('which events a consumer trusts (ADR 0034)', () => {
  const event = { source: '/workspace/cis', tenantId: 'acme', data: { actorId: 'u1' } as unknown };

  it("accepts an event from the topic's producer", () => {
    expect(untrustedEventReason(event, 'cis')).toBeUndefined();
    expect(untrustedEventReason({ ...event, data: { tenantId: 'acme' } }, 'cis')).toBeUndefined();
  });

  it('refuses an event whose source is another service', () => {
    expect(untrustedEventReason({ ...event, source: '/workspace/notification' }, 'cis')).toBe(
      "source /workspace/notification is not the topic's producer /workspace/cis",
    );
  });

  it('refuses an event whose tenant header disagrees with the tenant in its payload', () => {
    expect(untrustedEventReason({ ...event, data: { tenantId: 'globex' } }, 'cis')).toBe(
      "ce_tenantid acme disagrees with the payload's tenant globex",
    );
    expect(untrustedEventReason({ ...event, data: { tenant_id: 'globex' } }, 'cis')).toMatch(/disagrees/);
  });
});
