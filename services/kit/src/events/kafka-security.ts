import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { SASLOptions } from 'kafkajs';
import { ConfigError, type BaseConfig } from '../config.js';

/** How the Kafka client proves the brokers are ours (TLS) and who it is (SASL): kafkajs's `ssl` and `sasl`. */
export interface KafkaSecurity {
  ssl?: ConnectionOptions;
  sasl?: Extract<SASLOptions, { mechanism: 'scram-sha-512' | 'scram-sha-256' }>;
}

export type KafkaSecurityConfig = Pick<
  BaseConfig,
  | 'KAFKA_TLS'
  | 'KAFKA_TLS_CA_FILE'
  | 'KAFKA_TLS_CERT_FILE'
  | 'KAFKA_TLS_KEY_FILE'
  | 'KAFKA_TLS_SERVERNAME'
  | 'KAFKA_SASL_MECHANISM'
  | 'KAFKA_SASL_USERNAME'
  | 'KAFKA_SASL_PASSWORD'
  | 'KAFKA_SASL_PASSWORD_FILE'
>;

type FileKey =
  'KAFKA_TLS_CA_FILE' | 'KAFKA_TLS_CERT_FILE' | 'KAFKA_TLS_KEY_FILE' | 'KAFKA_SASL_PASSWORD_FILE';

const PEM_MARKERS: Partial<Record<FileKey, RegExp>> = {
  KAFKA_TLS_CA_FILE: /-----BEGIN CERTIFICATE-----/,
  KAFKA_TLS_CERT_FILE: /-----BEGIN CERTIFICATE-----/,
  KAFKA_TLS_KEY_FILE: /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
};

/**
 * Checks the Kafka security settings together and reads the files they name, once, at start. Every problem is
 * reported at once by variable name, as loadConfig does; the messages name paths but never a file's content or
 * a password. SASL needs TLS: with SCRAM the password never crosses the wire, but the events would.
 */
export function kafkaSecurity(
  config: KafkaSecurityConfig,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): KafkaSecurity {
  const issues: string[] = [];
  const read = (key: FileKey): string | undefined => {
    const path = config[key];
    if (path === undefined) return undefined;
    let content: string;
    try {
      content = readFile(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      issues.push(`${key}: cannot read ${path} (${code})`);
      return undefined;
    }
    const marker = PEM_MARKERS[key];
    if (marker && !marker.test(content)) {
      issues.push(
        `${key}: ${path} is not a PEM ${key === 'KAFKA_TLS_KEY_FILE' ? 'private key' : 'certificate'}`,
      );
      return undefined;
    }
    if (key === 'KAFKA_SASL_PASSWORD_FILE') {
      const password = content.replace(/\r?\n$/, '');
      if (password === '') issues.push(`${key}: ${path} is empty`);
      return password;
    }
    return content;
  };

  const tlsKeys = [
    'KAFKA_TLS_CA_FILE',
    'KAFKA_TLS_CERT_FILE',
    'KAFKA_TLS_KEY_FILE',
    'KAFKA_TLS_SERVERNAME',
  ] as const;
  if (!config.KAFKA_TLS) {
    for (const key of tlsKeys) {
      if (config[key] !== undefined) issues.push(`${key}: set KAFKA_TLS=true to use it`);
    }
  }
  if ((config.KAFKA_TLS_CERT_FILE === undefined) !== (config.KAFKA_TLS_KEY_FILE === undefined)) {
    const missing = config.KAFKA_TLS_CERT_FILE === undefined ? 'KAFKA_TLS_CERT_FILE' : 'KAFKA_TLS_KEY_FILE';
    issues.push(
      `${missing}: required with ${missing === 'KAFKA_TLS_CERT_FILE' ? 'KAFKA_TLS_KEY_FILE' : 'KAFKA_TLS_CERT_FILE'} (mutual TLS needs both)`,
    );
  }

  const mechanism = config.KAFKA_SASL_MECHANISM;
  const saslKeys = ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD', 'KAFKA_SASL_PASSWORD_FILE'] as const;
  if (mechanism === undefined) {
    for (const key of saslKeys) {
      if (config[key] !== undefined)
        issues.push(`${key}: set KAFKA_SASL_MECHANISM (scram-sha-512) to use it`);
    }
  } else {
    if (!config.KAFKA_TLS)
      issues.push('KAFKA_SASL_MECHANISM: needs KAFKA_TLS=true (the events would travel in clear)');
    if (config.KAFKA_SASL_USERNAME === undefined)
      issues.push('KAFKA_SASL_USERNAME: required with KAFKA_SASL_MECHANISM');
    const given = [config.KAFKA_SASL_PASSWORD, config.KAFKA_SASL_PASSWORD_FILE].filter(
      (v) => v !== undefined,
    );
    if (given.length !== 1) {
      issues.push(
        given.length === 0
          ? 'KAFKA_SASL_PASSWORD_FILE: required with KAFKA_SASL_MECHANISM (or KAFKA_SASL_PASSWORD)'
          : 'KAFKA_SASL_PASSWORD: set either it or KAFKA_SASL_PASSWORD_FILE, not both',
      );
    }
  }

  const ca = config.KAFKA_TLS ? read('KAFKA_TLS_CA_FILE') : undefined;
  const cert = config.KAFKA_TLS ? read('KAFKA_TLS_CERT_FILE') : undefined;
  const key = config.KAFKA_TLS ? read('KAFKA_TLS_KEY_FILE') : undefined;
  const passwordFromFile = mechanism ? read('KAFKA_SASL_PASSWORD_FILE') : undefined;
  if (issues.length > 0) throw new ConfigError(issues);

  const security: KafkaSecurity = {};
  if (config.KAFKA_TLS) {
    security.ssl = {
      rejectUnauthorized: true,
      ...(ca === undefined ? {} : { ca: [ca] }),
      ...(cert === undefined || key === undefined ? {} : { cert, key }),
      ...(config.KAFKA_TLS_SERVERNAME === undefined ? {} : { servername: config.KAFKA_TLS_SERVERNAME }),
    };
  }
  if (mechanism !== undefined && config.KAFKA_SASL_USERNAME !== undefined) {
    security.sasl = {
      mechanism,
      username: config.KAFKA_SASL_USERNAME,
      password: passwordFromFile ?? config.KAFKA_SASL_PASSWORD ?? '',
    };
  }
  return security;
}
