import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Logger } from '../logger.js';

export type { Knex } from 'knex';

// Money is integer pence and counts fit in 2^53; read int8 (bigint, count(*)) as numbers rather than strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new RangeError(`int8 ${value} is beyond Number.MAX_SAFE_INTEGER`);
  return parsed;
});
// A calendar date stays the string PostgreSQL sends ('2026-06-05'): a JS Date would shift it by the time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export interface DatabaseOptions {
  url: string;
  /** The service's own schema: its tables, outbox and inbox live here; `search_path` is set to it. */
  schema: string;
  poolMax?: number;
  /** Where knex's own warnings go (pool and connection errors); by default they are dropped. */
  logger?: Logger;
}

const identifier = /^[a-z_][a-z0-9_]*$/;

export function assertIdentifier(name: string): string {
  if (!identifier.test(name)) throw new Error(`'${name}' is not a safe SQL identifier`);
  return name;
}

export function createDatabase(options: DatabaseOptions): Knex {
  assertIdentifier(options.schema);
  return knexFactory({
    client: 'pg',
    connection: { connectionString: options.url, application_name: options.schema },
    searchPath: [options.schema],
    pool: { min: 0, max: options.poolMax ?? 10, idleTimeoutMillis: 30_000 },
    acquireConnectionTimeout: 5_000,
    log: {
      warn: (message: unknown) => options.logger?.warn({ component: 'knex' }, String(message)),
      error: (message: unknown) => options.logger?.error({ component: 'knex' }, String(message)),
      deprecate: (message: unknown) => options.logger?.warn({ component: 'knex' }, String(message)),
      debug: () => undefined,
    },
  });
}

export interface ServiceDatabaseRoles {
  /** The runtime role: reads and writes rows, owns nothing, so row-level security always applies to it. */
  databaseUrl: string;
  /** The owner role: owns the schema and runs migrations (DDL). */
  migrationUrl: string;
}

/**
 * Creates (or updates) a service's two login roles and its schema, idempotently: `<role>_owner` owns the
 * schema and runs the migrations; `<role>` gets only data privileges on what the owner creates, so it cannot
 * alter tables or switch row-level security off. Neither is a superuser or has BYPASSRLS. Run with an
 * administrative connection: by `make up` and the tests locally, by a Helm pre-install job on Kubernetes.
 */
export async function provisionServiceSchema(
  adminUrl: string,
  options: {
    schema: string;
    role: string;
    password: string;
    ownerPassword: string;
    /** Extensions the service's migrations use (created in `public` by the administrative connection). */
    extensions?: string[];
  },
): Promise<ServiceDatabaseRoles> {
  const schema = assertIdentifier(options.schema);
  const role = assertIdentifier(options.role);
  const owner = assertIdentifier(`${options.role}_owner`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const ensureRole = async (name: string, password: string) => {
      const { rowCount } = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [name]);
      const verb = rowCount ? 'ALTER' : 'CREATE';
      await client.query(
        `${verb} ROLE ${name} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE PASSWORD ${client.escapeLiteral(password)}`,
      );
    };
    await ensureRole(owner, options.ownerPassword);
    await ensureRole(role, options.password);
    for (const extension of options.extensions ?? [])
      await client.query(`CREATE EXTENSION IF NOT EXISTS ${assertIdentifier(extension)} SCHEMA public`);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema} AUTHORIZATION ${owner}`);
    await client.query(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
    await client.query(
      `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA ${schema} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${role}`,
    );
    await client.query(
      `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA ${schema} GRANT USAGE, SELECT ON SEQUENCES TO ${role}`,
    );
    for (const name of [owner, role]) await client.query(`ALTER ROLE ${name} SET search_path = ${schema}`);
    const { rows } = await client.query<{ db: string }>('SELECT current_database() AS db');
    await client.query(`GRANT CONNECT ON DATABASE "${rows[0]?.db ?? ''}" TO ${owner}, ${role}`);
  } finally {
    await client.end();
  }
  return {
    databaseUrl: serviceDatabaseUrl(adminUrl, role, options.password),
    migrationUrl: serviceDatabaseUrl(adminUrl, owner, options.ownerPassword),
  };
}

/** A connection string for a service role, from the administrative one. */
export function serviceDatabaseUrl(adminUrl: string, role: string, password: string): string {
  const url = new URL(adminUrl);
  url.username = role;
  url.password = password;
  return url.toString();
}

/**
 * Runs `work` in a transaction whose row-level-security tenant is `tenantId`: every tenant table's policy
 * compares its `tenant_id` with this setting, so a query cannot see another tenant's rows even without a WHERE.
 */
export function withTenant<T>(
  db: Knex,
  tenantId: string,
  work: (trx: Knex.Transaction) => Promise<T>,
): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw("SELECT set_config('app.tenant_id', ?, true)", [tenantId]);
    return work(trx);
  });
}

/**
 * Migration helper: forced row-level security for a table with a `tenant_id` column. Outside `withTenant` the
 * setting is unset or '' (after a transaction-local value ends), which matches no row: tenant ids are never
 * blank.
 */
export async function enableTenantIsolation(knex: Knex, table: string): Promise<void> {
  const name = assertIdentifier(table);
  await knex.raw(`ALTER TABLE ${name} ADD CONSTRAINT ${name}_tenant_id_not_blank CHECK (tenant_id <> '')`);
  await knex.raw(`ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY`);
  await knex.raw(`ALTER TABLE ${name} FORCE ROW LEVEL SECURITY`);
  await knex.raw(`
    CREATE POLICY tenant_isolation ON ${name}
      USING (tenant_id = nullif(current_setting('app.tenant_id', true), ''))
      WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), ''))`);
}

export async function pingDatabase(db: Knex, timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      db.raw('SELECT 1'),
      new Promise((_, reject) => {
        timer = setTimeout(() => {
          reject(new Error('timeout'));
        }, timeoutMs);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
