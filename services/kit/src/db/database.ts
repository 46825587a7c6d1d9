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

/**
 * Creates the service's login role and schema when missing (idempotent). Run with an administrative
 * connection: by `make up` and the tests locally, by a Helm pre-install job on Kubernetes. The role owns only its
 * schema and is not a superuser, so PostgreSQL enforces row-level security on it.
 */
export async function provisionServiceSchema(
  adminUrl: string,
  options: { schema: string; role: string; password: string },
): Promise<void> {
  const schema = assertIdentifier(options.schema);
  const role = assertIdentifier(options.role);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const quotedPassword = client.escapeLiteral(options.password);
    await client.query(`
      DO $$ BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${role}') THEN
          CREATE ROLE ${role} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE PASSWORD ${quotedPassword};
        ELSE
          ALTER ROLE ${role} LOGIN NOSUPERUSER NOBYPASSRLS PASSWORD ${quotedPassword};
        END IF;
      END $$`);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema} AUTHORIZATION ${role}`);
    await client.query(`ALTER ROLE ${role} SET search_path = ${schema}`);
    const { rows } = await client.query<{ db: string }>('SELECT current_database() AS db');
    await client.query(`GRANT CONNECT ON DATABASE "${rows[0]?.db ?? ''}" TO ${role}`);
  } finally {
    await client.end();
  }
}

/** A connection string for the service role, from the administrative one. */
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

/** Migration helper: turns on forced row-level security for a table with a `tenant_id` column. */
export async function enableTenantIsolation(knex: Knex, table: string): Promise<void> {
  const name = assertIdentifier(table);
  await knex.raw(`ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY`);
  await knex.raw(`ALTER TABLE ${name} FORCE ROW LEVEL SECURITY`);
  await knex.raw(`
    CREATE POLICY tenant_isolation ON ${name}
      USING (tenant_id = current_setting('app.tenant_id', true))
      WITH CHECK (tenant_id = current_setting('app.tenant_id', true))`);
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
