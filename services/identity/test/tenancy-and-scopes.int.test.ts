import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { eventually, testInfra } from '@workspace/kit/testing';
import { baseConfigSchema, startService } from '@workspace/kit';
import { provisionLedgerSchema, ledgerService } from '@workspace/kit/testing/ledger-service';
import { roleTemplates } from '../src/domain/index.js';
import {
  cachedAccessTokens,
  callIdentity,
  demoSeed,
  effectiveScopes,
  internalPost,
  signIn,
  startIdentityHarness,
  type IdentityHarness,
} from './support.js';

let harness: IdentityHarness;

const token = cachedAccessTokens(() => harness);
const call = (method: string, path: string, bearer: string, body?: unknown) =>
  callIdentity(harness, method, path, bearer, body);
const scopesOf = (bearer: string) => effectiveScopes(harness, bearer);

beforeAll(async () => {
  harness = await startIdentityHarness();
});

afterAll(async () => {
  await harness.stop();
});

describe('effective scopes of the role templates', () => {
  it.each([
    ['cis.admin@demo.test', 'cis-admin'],
    ['accountant@demo.test', 'cis-accountant'],
    ['clerk@demo.test', 'cis-clerk'],
    ['viewer@demo.test', 'viewer'],
    ['editor@demo.test', 'editor'],
    ['manager@demo.test', 'manager'],
  ] as const)('%s holds every scope of the %s template', async (email, template) => {
    const granted = await scopesOf(await token('demo', email));
    for (const scope of roleTemplates[template]) expect(granted).toContain(scope);
    expect(granted).not.toContain('system.superadmin');
    expect(granted).not.toContain('*');
  });

  it('gives the admin role every non-system scope and no system scope', async () => {
    const granted = await scopesOf(await token('demo', 'admin@demo.test'));
    for (const scope of roleTemplates.admin) expect(granted).toContain(scope);
    expect(granted.filter((scope) => scope.startsWith('system.'))).toEqual([]);
  });

  it('keeps the CIS clerk read-only: no write, approve, submit or manage scope', async () => {
    const granted = await scopesOf(await token('demo', 'clerk@demo.test'));
    expect(granted.filter((scope) => scope.startsWith('cis.') && !/\.(read)$/.test(scope))).toEqual([]);
  });
});

describe('cache invalidation', () => {
  it('applies a role-bundle change to the cached effective scopes at once', async () => {
    const accountant = await token('demo', 'accountant@demo.test');
    const before = await scopesOf(accountant);
    expect(before).toContain('cis.inv.approve');

    const admin = await token('demo', 'admin@demo.test');
    const reduced = roleTemplates['cis-accountant'].filter((scope) => scope !== 'cis.inv.approve');
    const saved = await call('PUT', '/v1/role-bundles/cis-accountant', admin, {
      name: 'CIS accountant',
      scopes: reduced,
    });
    expect(saved.status).toBe(204);

    const after = await scopesOf(accountant);
    expect(after).not.toContain('cis.inv.approve');
    expect(after).toContain('cis.inv.read');

    const restored = await call('PUT', '/v1/role-bundles/cis-accountant', admin, {
      name: 'CIS accountant',
      scopes: [...roleTemplates['cis-accountant']],
    });
    expect(restored.status).toBe(204);
    expect(await scopesOf(accountant)).toContain('cis.inv.approve');
  });

  it('limits effective scopes to the permission whitelist as soon as it changes', async () => {
    const admin = await token('demo', 'admin@demo.test');
    const manager = await token('demo', 'manager@demo.test');
    expect((await scopesOf(manager)).length).toBeGreaterThan(3);

    expect(
      (await call('PUT', '/v1/tenant/available-scopes', admin, { scopes: ['notes.view', 'schedule.read'] }))
        .status,
    ).toBe(204);
    const limited = await scopesOf(manager);
    expect(
      limited.every((scope) => ['notes.view', 'schedule.read', 'schedule.view_own'].includes(scope)),
    ).toBe(true);
    const whitelist = await call('GET', '/v1/tenant/available-scopes', admin);
    expect(whitelist.body).toMatchObject({ restricted: true, scopes: ['notes.view', 'schedule.read'] });

    expect((await call('PUT', '/v1/tenant/available-scopes', admin, { scopes: null })).status).toBe(204);
    expect((await scopesOf(manager)).length).toBeGreaterThan(3);
  });

  it('publishes the changes as events through the outbox', async () => {
    const { db } = harness.service.deps;
    const rows = await eventually(
      async () => {
        const list = await db('outbox')
          .whereIn('type', ['identity.role_bundle.changed', 'identity.whitelist.changed'])
          .whereNotNull('published_at');
        return list.length >= 4 ? list : undefined;
      },
      30_000,
      'published identity events',
    );
    expect(rows.map((row: { tenant_id: string }) => row.tenant_id)).toEqual(expect.arrayContaining(['demo']));
  });
});

describe('permissions and tenancy', () => {
  it('answers 403 naming the scope when it is missing', async () => {
    const viewer = await token('demo', 'viewer@demo.test');
    const res = await call('PUT', '/v1/role-bundles/viewer', viewer, { name: 'x', scopes: [] });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('This requires the roles.manage permission.');
  });

  it("shows a tenant only its own users and answers 404 for another tenant's user", async () => {
    const acmeAdmin = await token('acme', 'admin@acme.test');
    const users = await call('GET', '/v1/users', acmeAdmin);
    expect((users.body.items as { email: string }[]).map((user) => user.email)).toEqual(['admin@acme.test']);
    const demoUser = demoSeed.users[0]?.uid ?? '';
    const res = await call('PATCH', `/v1/users/${demoUser}`, acmeAdmin, { role: 'standard' });
    expect(res.status).toBe(404);
  });

  it('does not let a role change raise the caller', async () => {
    const admin = await token('demo', 'admin@demo.test');
    const self = await call('PATCH', `/v1/users/${demoSeed.users[0]?.uid ?? ''}`, admin, {
      role: 'standard',
    });
    expect(self.status).toBe(403);
    expect(self.body.detail).toBe('You cannot change your own role.');
    // A standard user who may manage users (a custom bundle) still cannot make anyone an administrator.
    const clerkUid = demoSeed.users[6]?.uid ?? '';
    expect(
      (await call('PUT', '/v1/role-bundles/people', admin, { name: 'People', scopes: ['users.manage'] }))
        .status,
    ).toBe(204);
    expect(
      (await call('PATCH', `/v1/users/${clerkUid}`, admin, { bundleIds: ['cis-clerk', 'people'] })).status,
    ).toBe(200);
    const clerk = (await signIn(harness, 'demo', 'clerk@demo.test', demoSeed.password)).body
      .accessToken as string;
    const raise = await call('PATCH', `/v1/users/${demoSeed.users[2]?.uid ?? ''}`, clerk, { role: 'admin' });
    expect(raise.status).toBe(403);
    expect(raise.body.detail).toBe('Only an administrator can make someone an administrator.');
    expect((await call('PATCH', `/v1/users/${clerkUid}`, admin, { bundleIds: ['cis-clerk'] })).status).toBe(
      200,
    );
  });

  it('validates scope lists against the vocabulary', async () => {
    const admin = await token('demo', 'admin@demo.test');
    const res = await call('PUT', '/v1/role-bundles/custom', admin, {
      name: 'Custom',
      scopes: ['cis.inv.read', 'made.up', 'system.superadmin'],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'body.scopes', message: 'Unknown scope made.up' },
      { field: 'body.scopes', message: 'system.superadmin is a system scope' },
    ]);
  });

  it('saves the user status and appearance settings', async () => {
    const editor = await token('demo', 'editor@demo.test');
    const res = await call('PATCH', '/v1/me', editor, {
      status: 'busy',
      themePreference: { mode: 'dark', layout: 'sidebar' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'busy', themePreference: { mode: 'dark', layout: 'sidebar' } });
    const me = await call('GET', '/v1/me', editor);
    expect(me.body).toMatchObject({
      user: { status: 'busy', themePreference: { mode: 'dark', layout: 'sidebar' } },
    });
    const bad = await call('PATCH', '/v1/me', editor, { status: 'asleep' });
    expect(bad.status).toBe(400);
  });
});

describe('footer settings', () => {
  it('are visible by default with the tenant name, and saved by an admin for everyone in the tenant', async () => {
    const editor = await token('demo', 'editor@demo.test');
    const defaults = await call('GET', '/v1/tenant/footer', editor);
    expect(defaults.status).toBe(200);
    expect(defaults.body).toMatchObject({
      showFooter: true,
      displayName: 'Demo Construction Ltd',
      showPoweredBy: true,
      links: [],
    });

    const admin = await token('demo', 'admin@demo.test');
    const footer = {
      ...defaults.body,
      displayName: '',
      poweredByText: 'Built on Workspace',
      links: [{ id: 'safety', label: 'Site safety', url: 'https://example.com/safety', enabled: true }],
    };
    const saved = await call('PUT', '/v1/tenant/footer', admin, footer);
    expect(saved.status).toBe(200);
    const read = await call('GET', '/v1/tenant/footer', editor);
    expect(read.body).toMatchObject({
      displayName: 'Demo Construction Ltd',
      poweredByText: 'Built on Workspace',
      links: [{ id: 'safety', label: 'Site safety', url: 'https://example.com/safety', enabled: true }],
    });
    const acme = await call('GET', '/v1/tenant/footer', await token('acme', 'admin@acme.test'));
    expect(acme.body).toMatchObject({ displayName: 'Acme Builders', links: [] });
  });

  it('need tenant.edit_settings to change, and refuse a link without a web address', async () => {
    const editor = await token('demo', 'editor@demo.test');
    const current = (await call('GET', '/v1/tenant/footer', editor)).body;
    expect((await call('PUT', '/v1/tenant/footer', editor, current)).status).toBe(403);
    const admin = await token('demo', 'admin@demo.test');
    const bad = await call('PUT', '/v1/tenant/footer', admin, {
      ...current,
      links: [{ id: 'x', label: 'Broken', url: 'javascript:alert(1)', enabled: true }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: 'body.links.0.url', message: 'Enter a web address (https://…) or a path (/…)' },
    ]);
  });
});

describe('portal magic links', () => {
  it('is single use: the first redemption gives a portal session limited to the subcontractor, the second is refused', async () => {
    const cisAdmin = await token('demo', 'cis.admin@demo.test');
    const created = await call('POST', '/v1/portal/links', cisAdmin, { subcontractorId: 'sub-42' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ expiresIn: '15 minutes', tenantName: 'Demo Construction Ltd' });
    const link = new URL(created.body.magicLink as string);
    expect(link.pathname).toBe('/portal-login');
    const redeem = { tenantId: link.searchParams.get('tid'), token: link.searchParams.get('token') };

    const first = await internalPost(harness, '/v1/portal/links/redeem', redeem);
    expect(first.status).toBe(200);
    const session = (await first.json()) as { accessToken: string; subcontractorId: string };
    expect(session.subcontractorId).toBe('sub-42');
    const claims = JSON.parse(
      Buffer.from(session.accessToken.split('.')[1] ?? '', 'base64url').toString(),
    ) as Record<string, unknown>;
    expect(claims).toMatchObject({
      tid: 'demo',
      role: 'subcontractor',
      scp: ['portal.self'],
      sctr: 'sub-42',
    });

    const second = await internalPost(harness, '/v1/portal/links/redeem', redeem);
    expect(second.status).toBe(410);
    expect(((await second.json()) as { detail: string }).detail).toBe(
      'This link has already been used. Ask your contractor for a new one.',
    );
  });

  it('refuses an expired link and an unknown one, and keeps only the hash of the token', async () => {
    const cisAdmin = await token('demo', 'cis.admin@demo.test');
    const created = await call('POST', '/v1/portal/links', cisAdmin, { subcontractorId: 'sub-7' });
    const link = new URL(created.body.magicLink as string);
    const plain = link.searchParams.get('token') ?? '';

    const admin = new pg.Client({ connectionString: harness.database.adminUrl });
    await admin.connect();
    try {
      const stored = await admin.query<{ token_hash: string }>(
        "SELECT token_hash FROM identity.portal_links WHERE subcontractor_id = 'sub-7'",
      );
      expect(stored.rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(stored.rows[0]?.token_hash).not.toContain(plain);
      await admin.query(
        "UPDATE identity.portal_links SET expires_at = now() - interval '1 second' WHERE subcontractor_id = 'sub-7'",
      );
    } finally {
      await admin.end();
    }
    const expired = await internalPost(harness, '/v1/portal/links/redeem', {
      tenantId: 'demo',
      token: plain,
    });
    expect(expired.status).toBe(410);
    expect(((await expired.json()) as { detail: string }).detail).toBe(
      'This link has expired. Ask your contractor for a new one.',
    );

    const unknown = await internalPost(harness, '/v1/portal/links/redeem', {
      tenantId: 'demo',
      token: randomBytes(32).toString('base64url'),
    });
    expect(unknown.status).toBe(404);
  });

  it('needs the portal invite scope to create a link', async () => {
    const clerk = await token('demo', 'clerk@demo.test');
    const res = await call('POST', '/v1/portal/links', clerk, { subcontractorId: 'sub-1' });
    expect(res.status).toBe(403);
  });
});

describe('token verification in a service', () => {
  it("lets a kit service verify identity's tokens through the JWKS and take the tenant from them", async () => {
    const roles = await provisionLedgerSchema(harness.database.adminUrl);
    const config = baseConfigSchema.parse({
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATABASE_URL: roles.databaseUrl,
      DATABASE_MIGRATION_URL: roles.migrationUrl,
      KAFKA_BROKERS: testInfra().kafkaBrokers,
      JWKS_URL: `${harness.baseUrl}/.well-known/jwks.json`,
    });
    const ledger = await startService(ledgerService(`ledger-jwks-${Date.now()}`), config);
    try {
      // The ledger's scopes are not in the vocabulary, so identity's admin token is verified but lacks them (403),
      // while a route every signed-in caller may use answers 200; a tampered signature is refused (401).
      const admin = await token('demo', 'admin@demo.test');
      const denied = await fetch(`http://127.0.0.1:${ledger.port}/api/ledgers/x/entries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ amountP: 1, note: 'n' }),
      });
      expect(denied.status).toBe(403);
      const slow = await fetch(`http://127.0.0.1:${ledger.port}/api/slow?ms=1`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(slow.status).toBe(200);
      const forged = await fetch(`http://127.0.0.1:${ledger.port}/api/slow?ms=1`, {
        headers: { authorization: `Bearer ${admin.slice(0, -4)}AAAA` },
      });
      expect(forged.status).toBe(401);
    } finally {
      await ledger.shutdown();
    }
  });
});
