// Security review L13: no row-level-security bypass keyed on a setting the runtime role can set itself. The clean-up
// of expired rows goes through the schema owner's SECURITY DEFINER function (migration 007).
import { randomUUID } from 'node:crypto';
import { createDatabase, migrateLatest, provisionServiceSchema } from '@workspace/kit';
import { createTestDatabase } from '@workspace/kit/testing';
import pg from 'pg';
import { identityMigrations } from '../migrations/index.js';
import { deleteExpiredTenantRows } from '../src/db/cleanup.js';
import { acmeSeed, demoSeed, startIdentityHarness, type IdentityHarness } from './support.js';

let harness: IdentityHarness;
let admin: pg.Client;
let runtime: pg.Client;

const demoUid = demoSeed.users[0]?.uid ?? '';
const acmeUid = acmeSeed.users[0]?.uid ?? '';
const ids = {
  demoExpired: randomUUID(),
  demoLive: randomUUID(),
  acmeExpired: randomUUID(),
  acmeLive: randomUUID(),
};

beforeAll(async () => {
  harness = await startIdentityHarness();
  admin = new pg.Client({ connectionString: harness.database.adminUrl });
  await admin.connect();
  runtime = new pg.Client({ connectionString: harness.config.DATABASE_URL });
  await runtime.connect();
  // Written as the administrator (a superuser, not under row-level security): one expired and one live row of
  // each kind in each tenant.
  for (const [tenant, uid, expired, live] of [
    ['demo', demoUid, ids.demoExpired, ids.demoLive],
    ['acme', acmeUid, ids.acmeExpired, ids.acmeLive],
  ] as const) {
    for (const [id, expiresAt] of [
      [expired, "now() - interval '1 minute'"],
      [live, "now() + interval '1 hour'"],
    ] as const) {
      await admin.query(
        `INSERT INTO identity.refresh_sessions (session_id, tenant_id, uid, token_hash, expires_at, absolute_expires_at)
         VALUES ($1, $2, $3, $4, ${expiresAt}, now() + interval '1 day')`,
        [id, tenant, uid, `hash-${id}`],
      );
      await admin.query(
        `INSERT INTO identity.portal_links (link_id, tenant_id, subcontractor_id, token_hash, expires_at, created_by)
         VALUES ($1, $2, 'sub-1', $3, ${expiresAt}, 'test')`,
        [id, tenant, `hash-${id}`],
      );
    }
  }
});

afterAll(async () => {
  await runtime.end();
  await admin.end();
  await harness.stop();
});

/** Runs `work` as the runtime role in a transaction with `settings` set as the role itself can, then rolls back. */
async function asRuntimeWith<T>(settings: Record<string, string>, work: () => Promise<T>): Promise<T> {
  await runtime.query('BEGIN');
  try {
    for (const [name, value] of Object.entries(settings)) {
      await runtime.query('SELECT set_config($1, $2, true)', [name, value]);
    }
    return await work();
  } finally {
    await runtime.query('ROLLBACK');
  }
}

const tenantsOf = async (table: string) =>
  (await runtime.query<{ tenant_id: string }>(`SELECT tenant_id FROM identity.${table}`)).rows.map(
    (row) => row.tenant_id,
  );

describe('settings the runtime role can set itself', () => {
  it("app.cleanup shows it no tenant's expired refresh sessions or portal links", async () => {
    await asRuntimeWith({ 'app.cleanup': 'on' }, async () => {
      expect(await tenantsOf('refresh_sessions')).toEqual([]);
      expect(await tenantsOf('portal_links')).toEqual([]);
      expect((await runtime.query('DELETE FROM identity.refresh_sessions')).rowCount).toBe(0);
    });
    await asRuntimeWith({ 'app.cleanup': 'on', 'app.tenant_id': 'demo' }, async () => {
      expect(new Set(await tenantsOf('refresh_sessions'))).toEqual(new Set(['demo']));
      expect(new Set(await tenantsOf('portal_links'))).toEqual(new Set(['demo']));
    });
  });

  it("app.user_keys_backfill shows it no tenant's users and lets it change none", async () => {
    await asRuntimeWith({ 'app.user_keys_backfill': 'on' }, async () => {
      expect(await tenantsOf('users')).toEqual([]);
      expect((await runtime.query('UPDATE identity.users SET public_key = NULL')).rowCount).toBe(0);
    });
    await asRuntimeWith({ 'app.user_keys_backfill': 'on', 'app.tenant_id': 'acme' }, async () => {
      expect(new Set(await tenantsOf('users'))).toEqual(new Set(['acme']));
    });
  });

  it('no policy of identity is keyed on a setting other than app.tenant_id', async () => {
    const { rows } = await admin.query<{
      policyname: string;
      qual: string | null;
      with_check: string | null;
    }>("SELECT policyname, qual, with_check FROM pg_policies WHERE schemaname = 'identity'");
    const settings = rows.flatMap((row) =>
      [...`${row.qual ?? ''} ${row.with_check ?? ''}`.matchAll(/current_setting\('([^']+)'/g)].map(
        (match) => `${row.policyname}: ${match[1]}`,
      ),
    );
    expect(settings.filter((setting) => !setting.endsWith(': app.tenant_id'))).toEqual([]);
  });
});

describe('the clean-up', () => {
  it('still deletes the expired refresh sessions and portal links of every tenant, and nothing live', async () => {
    const deleted = await deleteExpiredTenantRows(harness.service.deps.db);
    expect(deleted).toEqual({ refreshSessions: 2, portalLinks: 2 });
    for (const table of ['refresh_sessions', 'portal_links']) {
      const key = table === 'refresh_sessions' ? 'session_id' : 'link_id';
      const { rows } = await admin.query<{ id: string }>(
        `SELECT ${key} AS id FROM identity.${table} WHERE ${key} = ANY($1)`,
        [Object.values(ids)],
      );
      expect(new Set(rows.map((row) => row.id))).toEqual(new Set([ids.demoLive, ids.acmeLive]));
    }
  });
});

describe('migration 007', () => {
  it('refuses to drop the backfill policies while a user has no key pair, naming the remedy', async () => {
    const database = await createTestDatabase('identity_007');
    try {
      const roles = await provisionServiceSchema(database.adminUrl, {
        schema: 'identity',
        role: 'svc_identity',
        password: 'identity-test',
        ownerPassword: 'identity-owner-test',
      });
      const owner = createDatabase({ url: roles.migrationUrl, schema: 'identity', poolMax: 1 });
      const before007 = identityMigrations.filter((migration) => migration.name < '007');
      try {
        await migrateLatest(owner, 'identity', before007);
        const seeded = new pg.Client({ connectionString: database.adminUrl });
        await seeded.connect();
        await seeded.query(`INSERT INTO identity.tenants (tenant_id, name) VALUES ('old', 'Old')`);
        await seeded.query('ALTER TABLE identity.users DROP CONSTRAINT users_key_present');
        await seeded.query(
          `INSERT INTO identity.users (uid, tenant_id, email) VALUES ('30000000-0000-4000-8000-000000000001', 'old', 'old@old.test')`,
        );
        await seeded.end();
        await expect(migrateLatest(owner, 'identity', identityMigrations)).rejects.toThrow(
          /1 user\(s\) have no key pair yet: start the release before this one once/,
        );
      } finally {
        await owner.destroy();
      }
    } finally {
      await database.drop();
    }
  });
});
