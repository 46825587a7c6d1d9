// The contract between a service and `make up`'s embedded runner (deploy/local/embedded.ts): a package that exports
// an `./embedded` entry with an `embedded` descriptor runs in `make up` by existing; the runner names no service.
import type { ServiceDatabaseRoles } from './db/database.js';
import type { EventBus } from './events/bus.js';
import type { Logger } from './logger.js';

/** What the runner gives each service it starts in its one process. */
export interface EmbeddedContext {
  /** The process environment: a developer's overrides (LOG_LEVEL, CIS_TESTING_TOOLS) win over nothing else. */
  env: NodeJS.ProcessEnv;
  /** The in-process event bus every embedded service shares (no Kafka). */
  bus: EventBus;
  logger: Logger;
  /** The browser-facing origin: the public service's address. */
  publicUrl: string;
  /** `http://localhost:<port>` of another embedded service, by its name. */
  urlOf(service: string): string;
  /**
   * A secret of this local installation, made once and kept under the state folder (never in the repository); the
   * same name gives every service the same value. `token`: 32 random bytes in hex; `key`: an encryption key ring
   * (`local1:<32 bytes base64>`).
   */
  secret(name: string, kind?: 'token' | 'key'): string;
  /**
   * Provisions the service's own schema and roles in the local PostgreSQL (as in full mode) and answers the
   * environment every embedded service starts from: `env` plus its port, the in-process bus, its database URLs,
   * migrating at start (one process: it migrates as the owner, where a deployed service leaves that to the migrate
   * step) and the local identity's key set for verifying tokens. The service adds its own keys and parses the whole
   * with its config schema.
   */
  serviceEnv(options: { schema: string; role: string; extensions?: string[] }): Promise<NodeJS.ProcessEnv>;
  /** The local OpenID provider every user signs in at, and the one client registered there. */
  oidc: { issuer: string; clientId: string; clientSecret: string };
  /** The demo tenant (deploy/local/seed/demo.json), for the service that keeps tenants to seed. */
  demoTenant: unknown;
  /** Its id, the default tenant of the browser apps. */
  demoTenantId: string;
  /** The built web bundles (web/dist), for the service that serves them. */
  webDist: string;
}

export interface EmbeddedService {
  /** The service's name, as in its schema, logs and the runner's banner. */
  name: string;
  /** Its fixed local port (the banner and the other services' `urlOf` use it). */
  port: number;
  /** The service browsers open (the bff): `publicUrl` is its address. */
  public?: boolean;
  /** Services that must have started first (identity seeds the demo tenant before anyone signs in). */
  after?: string[];
  /** What the banner says of it, after its address, e.g. `internal; OpenAPI at /openapi.json`. */
  note?: string;
  start(context: EmbeddedContext): Promise<EmbeddedRunning>;
}

export interface EmbeddedRunning {
  /** Stops what `start` started, in reverse order. */
  shutdown(reason: string): Promise<void>;
  /** Extra lines for the banner (e.g. where the local e-mail sink shows its messages). */
  banner?: string[];
}

/**
 * The environment `serviceEnv` answers: the runner's `env`, then the service's port, the in-process bus, its database
 * URLs (migrating at start as the owner) and the local identity's key set.
 */
export function embeddedServiceEnv(options: {
  env: NodeJS.ProcessEnv;
  port: number;
  roles: ServiceDatabaseRoles;
  identityUrl: string;
}): NodeJS.ProcessEnv {
  return {
    ...options.env,
    PORT: String(options.port),
    BUS: 'memory',
    DATABASE_URL: options.roles.databaseUrl,
    DATABASE_MIGRATION_URL: options.roles.migrationUrl,
    MIGRATE_AT_START: 'true',
    JWKS_URL: `${options.identityUrl}/.well-known/jwks.json`,
  };
}
