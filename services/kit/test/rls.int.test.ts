import type { Knex } from 'knex';
import {
  createDatabase,
  migrateLatest,
  provisionServiceSchema,
  serviceDatabaseUrl,
  withTenant,
} from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { LEDGER_ROLE_PASSWORD, LEDGER_SCHEMA, ledgerMigrations } from './fixtures/ledger-service.js';

let database: TestDatabase;
let db: Knex;

beforeAll(async () => {
  database = await createTestDatabase('rls');
  await provisionServiceSchema(database.adminUrl, {
    schema: LEDGER_SCHEMA,
    role: 'svc_ledger',
    password: LEDGER_ROLE_PASSWORD,
  });
  // One connection, so the last test reads the very session the tenant was set on.
  db = createDatabase({
    url: serviceDatabaseUrl(database.adminUrl, 'svc_ledger', LEDGER_ROLE_PASSWORD),
    schema: LEDGER_SCHEMA,
    poolMax: 1,
  });
  await migrateLatest(db, LEDGER_SCHEMA, ledgerMigrations);
  for (const tenant of ['tenant-a', 'tenant-b']) {
    await withTenant(db, tenant, (trx) =>
      trx('ledger_entries').insert(
        [1, 2, 3].map((sequence) => ({
          tenant_id: tenant,
          ledger_id: 'main',
          sequence,
          amount_p: 100,
          note: tenant,
        })),
      ),
    );
  }
});

afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('row-level security', () => {
  it("shows a raw query only the current tenant's rows, with no WHERE clause", async () => {
    const rows = await withTenant(db, 'tenant-a', (trx) =>
      trx.raw<{ rows: { tenant_id: string }[] }>('SELECT * FROM ledger_entries'),
    );
    expect(rows.rows).toHaveLength(3);
    expect(new Set(rows.rows.map((row) => row.tenant_id))).toEqual(new Set(['tenant-a']));
  });

  it('shows nothing when no tenant is set', async () => {
    const result = await db.raw<{ rows: unknown[] }>('SELECT * FROM ledger_entries');
    expect(result.rows).toHaveLength(0);
  });

  it("cannot update or delete another tenant's rows", async () => {
    const updated = await withTenant(db, 'tenant-a', (trx) =>
      trx('ledger_entries').where({ tenant_id: 'tenant-b' }).update({ note: 'x' }),
    );
    const deleted = await withTenant(db, 'tenant-a', (trx) =>
      trx('ledger_entries').where({ tenant_id: 'tenant-b' }).delete(),
    );
    expect(updated).toBe(0);
    expect(deleted).toBe(0);
    const b = await withTenant(db, 'tenant-b', (trx) => trx('ledger_entries').select('note'));
    expect(b.map((row: { note: string }) => row.note)).toEqual(['tenant-b', 'tenant-b', 'tenant-b']);
  });

  it('refuses to write a row for another tenant', async () => {
    await expect(
      withTenant(db, 'tenant-a', (trx) =>
        trx('ledger_entries').insert({
          tenant_id: 'tenant-b',
          ledger_id: 'x',
          sequence: 1,
          amount_p: 1,
          note: 'sneaky',
        }),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it('keeps the tenant setting inside its transaction only', async () => {
    await withTenant(db, 'tenant-a', (trx) => trx.raw('SELECT 1'));
    const result = await db.raw<{ rows: { tenant: string | null }[] }>(
      "SELECT current_setting('app.tenant_id', true) AS tenant",
    );
    expect(result.rows[0]?.tenant ?? '').toBe('');
  });
});
