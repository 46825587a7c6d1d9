import type { Knex } from 'knex';
import { createDatabase, migrateLatest, withTenant } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { LEDGER_SCHEMA, ledgerMigrations, provisionLedgerSchema } from './fixtures/ledger-service.js';

let database: TestDatabase;
let db: Knex;

beforeAll(async () => {
  database = await createTestDatabase('rls');
  const roles = await provisionLedgerSchema(database.adminUrl);
  const migrator = createDatabase({ url: roles.migrationUrl, schema: LEDGER_SCHEMA, poolMax: 1 });
  await migrateLatest(migrator, LEDGER_SCHEMA, ledgerMigrations);
  await migrator.destroy();
  // The runtime role, with one connection, so the last test reads the very session the tenant was set on.
  db = createDatabase({ url: roles.databaseUrl, schema: LEDGER_SCHEMA, poolMax: 1 });
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

  it('does not let the runtime role switch row-level security off or change the table', async () => {
    await expect(db.raw('ALTER TABLE ledger_entries DISABLE ROW LEVEL SECURITY')).rejects.toThrow(
      /must be owner/,
    );
    await expect(db.raw('DROP POLICY tenant_isolation ON ledger_entries')).rejects.toThrow(/must be owner/);
  });

  it('refuses a blank tenant id, so an unset tenant setting can never match a row', async () => {
    await expect(
      db.raw(
        "SELECT set_config('app.tenant_id', '', false); INSERT INTO ledger_entries (tenant_id, ledger_id, sequence, amount_p, note) VALUES ('', 'x', 1, 1, 'blank')",
      ),
    ).rejects.toThrow(/tenant_id_not_blank|row-level security/);
  });

  it('keeps the tenant setting inside its transaction only', async () => {
    await withTenant(db, 'tenant-a', (trx) => trx.raw('SELECT 1'));
    const result = await db.raw<{ rows: { tenant: string | null }[] }>(
      "SELECT current_setting('app.tenant_id', true) AS tenant",
    );
    expect(result.rows[0]?.tenant ?? '').toBe('');
  });
});
