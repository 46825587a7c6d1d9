import { isIP } from 'node:net';
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

/** An IPv4 or IPv6 address, with an optional /prefix (CIDR). */
function isAddressOrCidr(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which proxies in front may tell the client's address (X-Forwarded-For) and protocol: `false`/`0` none, a hop
 * count (`1` behind one ingress: the right-most address is the client as the ingress saw it), or the proxies'
 * addresses/CIDRs, comma-separated. `true` (every hop) is refused: a client could then name any address it likes,
 * and rate limits keyed by it would give a fresh allowance per request.
 */
export const trustProxySchema = z
  .string()
  .trim()
  .refine(
    (value) => value !== 'true',
    'TRUST_PROXY=true would trust every hop (clients could choose their own address): give the number of proxies in front (e.g. 1) or their addresses/CIDRs',
  )
  .refine(
    (value) =>
      value === 'false' ||
      /^\d{1,2}$/.test(value) ||
      value.split(',').every((entry) => isAddressOrCidr(entry.trim())),
    'TRUST_PROXY must be false, a hop count (0-99) or comma-separated proxy addresses/CIDRs',
  )
  .transform((value): TrustProxy => {
    if (value === 'false' || value === '0') return false;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    return value.split(',').map((entry) => entry.trim());
  });

/**
 * A secret key given as base64 (`openssl rand -base64 32`): at least `minBytes` bytes once decoded. The message names
 * the rule, never the value. For keys that are not a FieldCipher list, e.g. an HMAC key.
 */
export const secretKeySchema = (minBytes = 32) =>
  z
    .string()
    .trim()
    .refine(
      (value) => /^[A-Za-z0-9+/]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length >= minBytes,
      `must be base64 of at least ${minBytes} random bytes (openssl rand -base64 ${minBytes})`,
    );

/** express's `trust proxy`: nothing, a number of hops, or the trusted proxies' addresses/CIDRs. */
export type TrustProxy = false | number | string[];

/** Settings every service shares. Services extend this schema with their own keys. */
export const baseConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The service's runtime role (data only). */
  DATABASE_URL: z.url(),
  /**
   * The schema owner role, for the migrate step (`node dist/main.js migrate`) and for MIGRATE_AT_START only: a
   * serving process started without MIGRATE_AT_START refuses it (ADR 0033).
   */
  DATABASE_MIGRATION_URL: z.url().optional(),
  /**
   * Run the migrations when the process starts (as DATABASE_MIGRATION_URL, else DATABASE_URL's role). For one-process
   * setups only (`make up`, the test harnesses); deployed services leave it off and run the migrate step first.
   */
  MIGRATE_AT_START: booleanFromEnv.default(false),
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
  TRUST_PROXY: trustProxySchema.default(false),
  /**
   * The port of the operational endpoints (/healthz, /readyz, /metrics, /openapi.json): when set they are served
   * there only, not on PORT (the charts set it, so the ingress never reaches them); unset (local runs), on PORT.
   */
  MANAGEMENT_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * The address the ports listen on: every interface in a container (the default); `make up` sets 127.0.0.1, so a
   * developer's machine does not offer the product (and its trust-auth database behind it) to its network.
   */
  LISTEN_HOST: z.string().trim().min(1).default('0.0.0.0'),
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

/**
 * A serving process holds the runtime role only (ADR 0033): the schema owner's URL is refused unless the process
 * migrates at start (`make up`, the tests), so a Secret that still carries it fails the rollout with this message
 * instead of leaving the owner's password in a long-running pod.
 */
export function checkServingDatabaseConfig(config: BaseConfig): void {
  if (config.DATABASE_MIGRATION_URL && !config.MIGRATE_AT_START) {
    throw new ConfigError([
      "DATABASE_MIGRATION_URL: a serving process must not hold the schema owner's URL; migrations run in their " +
        "own step (`node dist/main.js migrate`, the chart's migrate Job). Only MIGRATE_AT_START=true (make up, " +
        'tests) takes it.',
    ]);
  }
}
