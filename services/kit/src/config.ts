import { z } from 'zod';

/** Thrown when the environment does not satisfy a service's configuration schema. */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n  ${issues.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

/** Settings every service shares. Services extend this schema with their own keys. */
export const baseConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The service's runtime role (data only). */
  DATABASE_URL: z.url(),
  /** The schema owner role that runs migrations; the runtime role when not set (single-role deployments). */
  DATABASE_MIGRATION_URL: z.url().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  BUS: z.enum(['kafka', 'memory']).default('kafka'),
  KAFKA_BROKERS: z.string().default('127.0.0.1:9092'),
  KAFKA_TOPIC_PARTITIONS: z.coerce.number().int().min(1).default(6),
  KAFKA_REPLICATION_FACTOR: z.coerce.number().int().min(1).default(1),
  /** TLS to the brokers (the listener's port, e.g. Strimzi's 9093). The rules between these keys: kafkaSecurity. */
  KAFKA_TLS: booleanFromEnv.default(false),
  /** PEM file of the CA that signed the brokers' certificates (Strimzi: <cluster>-cluster-ca-cert, ca.crt). */
  KAFKA_TLS_CA_FILE: z.string().min(1).optional(),
  /** Client certificate and key (PEM files) for mutual TLS; both or neither. */
  KAFKA_TLS_CERT_FILE: z.string().min(1).optional(),
  KAFKA_TLS_KEY_FILE: z.string().min(1).optional(),
  /** The name the brokers' certificates are checked against, when it is not the host in KAFKA_BROKERS. */
  KAFKA_TLS_SERVERNAME: z.string().min(1).optional(),
  KAFKA_SASL_MECHANISM: z.enum(['scram-sha-512', 'scram-sha-256']).optional(),
  KAFKA_SASL_USERNAME: z.string().min(1).optional(),
  /** The password itself, or (preferred) a file holding it: exactly one of the two with a mechanism. */
  KAFKA_SASL_PASSWORD: z.string().min(1).optional(),
  KAFKA_SASL_PASSWORD_FILE: z.string().min(1).optional(),
  JWKS_URL: z.url().optional(),
  JWT_ISSUER: z.string().default('workspace-identity'),
  JWT_AUDIENCE: z.string().default('workspace'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(25_000),
  TRUST_PROXY: booleanFromEnv.default(false),
});

export type BaseConfig = z.infer<typeof baseConfigSchema>;

/**
 * Parses the environment with a zod schema. Every problem is reported at once, by variable name, without
 * echoing values (they may be secrets).
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
}
