import { jest } from '@jest/globals';
import pg from 'pg';
import { allFakeableBut, eventually } from '@workspace/kit/testing';
import { tenantId as tenantIdSchema } from '../src/domain/tenant.js';
import { SCOPE_CACHE_TTL_MS } from '../src/domain/index.js';
import {
  acmeSeed,
  cachedAccessTokens,
  callIdentity,
  demoSeed,
  effectiveScopes,
  internalPost,
  routesOf,
  routeStatus,
  startIdentityHarness,
  type IdentityHarness,
  type Json,
} from './support.js';

/*
 * The stored records behind the workspace's tenants, users, whitelists and role bundles (checked in PostgreSQL as
 * a superuser, past row-level security), identity's scope cache at work, tenant ids, and the portal link lifetime:
 * identity against real PostgreSQL and Kafka and the dev IdP, through its HTTP API.
 */

let harness: IdentityHarness;
let admin: pg.Client;

const uidOf = (email: string): string => {
  const user = [...demoSeed.users, ...acmeSeed.users].find((candidate) => candidate.email === email);
  if (!user) throw new Error(`no seeded user ${email}`);
  return user.uid;
};

const token = cachedAccessTokens(() => harness);
const call = (method: string, path: string, bearer?: string, body?: unknown) =>
  callIdentity(harness, method, path, bearer, body);
const scopesOf = (bearer: string) => effectiveScopes(harness, bearer);

/** Fakes one clock only (from `now` when given): every other fakeable API, the timers included, stays real. */
function fakeOnly(clock: 'Date' | 'performance', now?: number): void {
  jest.useFakeTimers({
    ...(now === undefined ? {} : { now }),
    doNotFake: allFakeableBut(clock),
  });
}

/** One row of an identity table, read as the database superuser (no row-level security). */
async function row(sql: string, params: unknown[]): Promise<Record<string, unknown>> {
  const result = await admin.query(sql, params);
  const first = result.rows[0] as Record<string, unknown> | undefined;
  if (!first) throw new Error(`no row for ${sql} ${JSON.stringify(params)}`);
  return first;
}

beforeAll(async () => {
  harness = await startIdentityHarness();
  admin = new pg.Client({ connectionString: harness.database.adminUrl });
  await admin.connect();
});

afterAll(async () => {
  await admin.end();
  await harness.stop();
});

// First in the file: the changes the later tests make publish events whose consumer drops the tenant's cached
// scopes (at any moment, as they arrive), which would make a lookup here miss the cache.
describe('the scope cache (WS-266, CIS-354)', () => {
  const context = () => harness.definition.context();

  beforeEach(async () => {
    // identity's scope cache reads the monotonic clock (performance); only that is faked, so PostgreSQL, Kafka and
    // HTTP keep real time. Entries cached before the clock was faked are dropped.
    fakeOnly('performance');
    context().scopeCache.invalidateTenant('demo');
    await admin.query("UPDATE identity.tenants SET available_scopes = NULL WHERE tenant_id = 'demo'");
  });

  afterEach(async () => {
    jest.useRealTimers();
    await admin.query("UPDATE identity.tenants SET available_scopes = NULL WHERE tenant_id = 'demo'");
    context().scopeCache.invalidateTenant('demo');
  });

  /** Changes the whitelist in the database only: no event, so nothing tells identity to drop its cached scopes. */
  const whitelistBehindTheCache = (scopes: string[]) =>
    admin.query("UPDATE identity.tenants SET available_scopes = $1 WHERE tenant_id = 'demo'", [scopes]);

  it.each([
    ['a standard user', 'manager@demo.test', SCOPE_CACHE_TTL_MS.standard, 300_000],
    ['an admin', 'admin@demo.test', SCOPE_CACHE_TTL_MS.admin, 600_000],
  ] as const)(
    'WS-266, CIS-354: %s’s second lookup is served from the cache until it expires (%#)',
    async (_who, email, ttlMs, expectedTtlMs) => {
      expect(ttlMs).toBe(expectedTtlMs);
      const bearer = await token('demo', email);
      context().scopeCache.invalidateTenant('demo');
      const first = await scopesOf(bearer);
      expect(first.length).toBeGreaterThan(2);
      expect(context().scopeCache.get('demo', uidOf(email))).toEqual(first);

      await whitelistBehindTheCache(['notes.view']);
      expect(await scopesOf(bearer)).toEqual(first); // the second lookup: the cache, not the database

      jest.advanceTimersByTime(ttlMs - 1);
      expect(await scopesOf(bearer)).toEqual(first);
      jest.advanceTimersByTime(1);
      expect(await scopesOf(bearer)).toEqual(['notes.view']); // expired: computed again from the database
    },
  );

  it('WS-266, CIS-354: a session holding system scopes keeps them cached 30 minutes', async () => {
    const email = 'viewer@demo.test';
    const uid = uidOf(email);
    const bearer = await token('demo', email); // signing in caches the scopes it puts in the token
    await admin.query('UPDATE identity.users SET super_admin = true WHERE uid = $1', [uid]);
    context().scopeCache.invalidateTenant('demo');
    try {
      const first = await scopesOf(bearer);
      expect(first).toContain('system.superadmin');
      expect(SCOPE_CACHE_TTL_MS.system).toBe(1_800_000);

      await admin.query('UPDATE identity.users SET super_admin = false WHERE uid = $1', [uid]);
      jest.advanceTimersByTime(SCOPE_CACHE_TTL_MS.admin); // 10 minutes: longer than any other class
      expect(await scopesOf(bearer)).toEqual(first);
      jest.advanceTimersByTime(SCOPE_CACHE_TTL_MS.system - SCOPE_CACHE_TTL_MS.admin - 1);
      expect(await scopesOf(bearer)).toEqual(first);
      jest.advanceTimersByTime(1);
      const after = await scopesOf(bearer);
      expect(after).not.toContain('system.superadmin');
      expect(after.filter((scope) => scope.startsWith('system.'))).toEqual([]);
    } finally {
      await admin.query('UPDATE identity.users SET super_admin = false WHERE uid = $1', [uid]);
    }
  });
});

describe('the tenant record', () => {
  it('WS-213, WS-006: the tenant row holds id, region, branding and the module list (each module enabled and config)', async () => {
    const tenant = await row('SELECT * FROM identity.tenants WHERE tenant_id = $1', ['demo']);
    expect(Object.keys(tenant)).toEqual(
      expect.arrayContaining(['tenant_id', 'name', 'region', 'branding', 'modules', 'available_scopes']),
    );
    expect(tenant).toMatchObject({
      tenant_id: 'demo',
      region: 'uk',
      branding: { accentColor: '#1677FF' },
    });
    const modules = tenant.modules as { id: string; enabled: boolean; config: unknown }[];
    expect(modules.map((module) => module.id)).toEqual(demoSeed.tenant.modules?.map((module) => module.id));
    for (const module of modules) expect(Object.keys(module).sort()).toEqual(['config', 'enabled', 'id']);
    expect(modules.find((module) => module.id === 'chat')).toEqual({
      id: 'chat',
      enabled: false,
      config: {},
    });

    // The sign-in page's metadata names the region databaseRegion; the signed-in tenant carries the modules.
    const metadata = await call('GET', '/v1/tenants/demo/metadata');
    expect(metadata.body).toEqual({
      id: 'demo',
      name: 'Demo Construction Ltd',
      databaseRegion: 'uk',
      branding: { accentColor: '#1677FF' },
    });
    const acme = await call('GET', '/v1/tenants/acme/metadata');
    expect(acme.body).toMatchObject({ id: 'acme', databaseRegion: 'eu' });
  });

  it('WS-006, WS-216: a module’s enabled flag and config are saved, stored and read back; a disabled module stays listed as disabled', async () => {
    const bearer = await token('demo', 'admin@demo.test');
    const modules = [
      { id: 'schedule', enabled: true, config: { defaultView: 'week', workingHoursEnd: 18 } },
      { id: 'notes', enabled: false, config: { viewMode: 'list' } },
      { id: 'cis', enabled: true, config: { testingTools: true } },
      { id: 'drive', enabled: true, config: {} },
    ];
    const saved = await call('PATCH', '/v1/tenant', bearer, { modules });
    expect(saved.status).toBe(200);
    expect(saved.body.modules).toEqual(modules);

    const stored = await row('SELECT modules FROM identity.tenants WHERE tenant_id = $1', ['demo']);
    expect(stored.modules).toEqual(modules);
    const read = await call('GET', '/v1/tenant', bearer);
    expect(read.body.modules).toEqual(modules);
    expect((await call('GET', '/v1/me', bearer)).body.tenant.modules).toEqual(modules);

    // A module without config is stored with an empty one; another tenant's modules are untouched.
    const defaulted = await call('PATCH', '/v1/tenant', bearer, {
      modules: [...demoSeed.tenant.modules!.map(({ id, enabled }) => ({ id, enabled }))],
    });
    expect(defaulted.status).toBe(200);
    expect(defaulted.body.modules).toEqual(demoSeed.tenant.modules);
    const acme = await row('SELECT modules FROM identity.tenants WHERE tenant_id = $1', ['acme']);
    expect(acme.modules).toEqual([{ id: 'cis', enabled: true, config: {} }]);
  });

  it('WS-215: branding keeps accentColor or accentHsl, stored and served with the metadata', async () => {
    const bearer = await token('acme', 'admin@acme.test');
    const hsl = await call('PATCH', '/v1/tenant', bearer, { branding: { accentHsl: 'hsl(214, 100%, 54%)' } });
    expect(hsl.status).toBe(200);
    expect(
      (await row('SELECT branding FROM identity.tenants WHERE tenant_id = $1', ['acme'])).branding,
    ).toEqual({ accentHsl: 'hsl(214, 100%, 54%)' });
    expect((await call('GET', '/v1/tenants/acme/metadata')).body.branding).toEqual({
      accentHsl: 'hsl(214, 100%, 54%)',
    });
    const colour = await call('PATCH', '/v1/tenant', bearer, { branding: { accentColor: '#722ED1' } });
    expect(colour.body.branding).toEqual({ accentColor: '#722ED1' });
    const wrong = await call('PATCH', '/v1/tenant', bearer, { branding: { accentColor: 'purple' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([
      { field: 'body.branding.accentColor', message: 'Accent colour must be a hex colour such as #1677FF' },
    ]);
    expect((await call('PATCH', '/v1/tenant', bearer, { branding: {} })).status).toBe(200);
  });
});

describe('the user record', () => {
  it('WS-208, WS-209: the user row holds uid, email, role, tenant, names, username, status, theme, teams and sites', async () => {
    const uid = uidOf('manager@demo.test');
    const user = await row('SELECT * FROM identity.users WHERE uid = $1', [uid]);
    expect(Object.keys(user)).toEqual(
      expect.arrayContaining([
        'uid',
        'email',
        'role',
        'tenant_id',
        'display_name',
        'first_name',
        'last_name',
        'username',
        'theme_preference',
        'status',
        'team_ids',
        'site_ids',
      ]),
    );
    expect(user).toMatchObject({
      uid,
      email: 'manager@demo.test',
      role: 'standard',
      tenant_id: 'demo',
      display_name: 'Mo Manager',
      first_name: 'Mo',
      last_name: 'Manager',
      username: 'manager',
      status: 'active',
      theme_preference: {},
      team_ids: [],
      site_ids: [],
    });
  });

  it('WS-209: status and the theme mode (themePreference.mode) are saved to the row; teamIds and siteIds are read from it', async () => {
    const uid = uidOf('editor@demo.test');
    const bearer = await token('demo', 'editor@demo.test');
    const saved = await call('PATCH', '/v1/me', bearer, {
      status: 'busy',
      themePreference: { mode: 'dark', layout: 'sidebar' },
    });
    expect(saved.status).toBe(200);
    const user = await row('SELECT status, theme_preference FROM identity.users WHERE uid = $1', [uid]);
    expect(user).toEqual({ status: 'busy', theme_preference: { mode: 'dark', layout: 'sidebar' } });

    await admin.query(
      "UPDATE identity.users SET team_ids = '{site-team}', site_ids = '{north-yard,south-yard}' WHERE uid = $1",
      [uid],
    );
    const me = await call('GET', '/v1/me', bearer);
    expect(me.body.user).toMatchObject({
      uid,
      status: 'busy',
      themePreference: { mode: 'dark', layout: 'sidebar' },
      teamIds: ['site-team'],
      siteIds: ['north-yard', 'south-yard'],
    });
  });
});

describe('permission whitelists and role bundles per tenant', () => {
  it('WS-226: two tenants keep separate whitelists, each limiting only its own users', async () => {
    const demoAdmin = await token('demo', 'admin@demo.test');
    const acmeAdmin = await token('acme', 'admin@acme.test');
    const manager = await token('demo', 'manager@demo.test');

    expect(
      (await call('PUT', '/v1/tenant/available-scopes', demoAdmin, { scopes: ['notes.view', 'drive.view'] }))
        .status,
    ).toBe(204);
    expect(
      (
        await call('PUT', '/v1/tenant/available-scopes', acmeAdmin, {
          scopes: ['cis.sub.read', 'users.view'],
        })
      ).status,
    ).toBe(204);

    const stored = await admin.query(
      "SELECT tenant_id, available_scopes FROM identity.tenants WHERE tenant_id IN ('demo', 'acme') ORDER BY tenant_id",
    );
    expect(stored.rows).toEqual([
      { tenant_id: 'acme', available_scopes: ['cis.sub.read', 'users.view'] },
      { tenant_id: 'demo', available_scopes: ['notes.view', 'drive.view'] },
    ]);
    expect((await call('GET', '/v1/tenant/available-scopes', demoAdmin)).body).toEqual({
      scopes: ['notes.view', 'drive.view'],
      restricted: true,
    });
    expect((await call('GET', '/v1/tenant/available-scopes', acmeAdmin)).body).toEqual({
      scopes: ['cis.sub.read', 'users.view'],
      restricted: true,
    });
    expect(await scopesOf(manager)).toEqual(['drive.view', 'notes.view']);
    expect(await scopesOf(acmeAdmin)).toEqual(['cis.sub.read', 'users.view']);

    // Lifting demo's whitelist leaves acme's in place.
    expect((await call('PUT', '/v1/tenant/available-scopes', demoAdmin, { scopes: null })).status).toBe(204);
    expect(
      (await row('SELECT available_scopes FROM identity.tenants WHERE tenant_id = $1', ['demo']))
        .available_scopes,
    ).toBeNull();
    expect((await call('GET', '/v1/tenant/available-scopes', demoAdmin)).body.restricted).toBe(false);
    expect(await scopesOf(acmeAdmin)).toEqual(['cis.sub.read', 'users.view']);
    expect((await scopesOf(manager)).length).toBeGreaterThan(2);
    expect((await call('PUT', '/v1/tenant/available-scopes', acmeAdmin, { scopes: null })).status).toBe(204);
  });

  it('WS-227, CIS-206: a role bundle is a row per tenant: tenant id, bundle id, name, scopes and template', async () => {
    const columns = await admin.query(
      "SELECT column_name FROM information_schema.columns WHERE table_schema = 'identity' AND table_name = 'role_bundles'",
    );
    expect(columns.rows.map((column: { column_name: string }) => column.column_name)).toEqual(
      expect.arrayContaining(['tenant_id', 'bundle_id', 'name', 'scopes', 'template']),
    );

    // Every tenant has its own copy of the templates' bundles.
    const templates = await admin.query(
      "SELECT tenant_id, bundle_id, name, template FROM identity.role_bundles WHERE bundle_id = 'cis-clerk' ORDER BY tenant_id",
    );
    expect(templates.rows).toEqual([
      { tenant_id: 'acme', bundle_id: 'cis-clerk', name: 'cis-clerk', template: 'cis-clerk' },
      { tenant_id: 'demo', bundle_id: 'cis-clerk', name: 'cis-clerk', template: 'cis-clerk' },
    ]);

    const demoAdmin = await token('demo', 'admin@demo.test');
    const acmeAdmin = await token('acme', 'admin@acme.test');
    const saved = await call('PUT', '/v1/role-bundles/site-lead', demoAdmin, {
      name: 'Site lead',
      scopes: ['schedule.read', 'notes.view'],
    });
    expect(saved.status).toBe(204);
    const stored = await admin.query(
      "SELECT tenant_id, bundle_id, name, scopes, template FROM identity.role_bundles WHERE bundle_id = 'site-lead'",
    );
    expect(stored.rows).toEqual([
      {
        tenant_id: 'demo',
        bundle_id: 'site-lead',
        name: 'Site lead',
        scopes: ['schedule.read', 'notes.view'],
        template: null,
      },
    ]);
    const demoBundles = (await call('GET', '/v1/role-bundles', demoAdmin)).body.items as Json[];
    expect(demoBundles).toContainEqual({
      id: 'site-lead',
      name: 'Site lead',
      scopes: ['schedule.read', 'notes.view'],
      template: null,
    });
    const acmeBundles = (await call('GET', '/v1/role-bundles', acmeAdmin)).body.items as Json[];
    expect(acmeBundles.map((bundle: { id: string }) => bundle.id)).not.toContain('site-lead');

    // The same bundle id changed in one tenant leaves the other tenant's bundle as it was.
    const acmeClerkBefore = await row(
      "SELECT scopes FROM identity.role_bundles WHERE tenant_id = 'acme' AND bundle_id = 'cis-clerk'",
      [],
    );
    expect(
      (
        await call('PUT', '/v1/role-bundles/cis-clerk', demoAdmin, {
          name: 'Clerk',
          scopes: ['cis.sub.read'],
        })
      ).status,
    ).toBe(204);
    expect(
      await row(
        "SELECT name, scopes FROM identity.role_bundles WHERE tenant_id = 'demo' AND bundle_id = 'cis-clerk'",
        [],
      ),
    ).toEqual({ name: 'Clerk', scopes: ['cis.sub.read'] });
    expect(
      await row(
        "SELECT name, scopes FROM identity.role_bundles WHERE tenant_id = 'acme' AND bundle_id = 'cis-clerk'",
        [],
      ),
    ).toEqual({ name: 'cis-clerk', scopes: acmeClerkBefore.scopes });
  });

  it('WS-384: a lookup for the same user id in another tenant matches nothing', async () => {
    const uid = uidOf('admin@demo.test');
    const { scopeCache, signer } = harness.definition.context();
    // Cached scopes are keyed by tenant and user: the demo user's entry is not found under acme.
    scopeCache.set('demo', uid, ['notes.view'], SCOPE_CACHE_TTL_MS.admin);
    expect(scopeCache.get('acme', uid)).toBeUndefined();
    expect(scopeCache.get('demo', uid)).toEqual(['notes.view']);

    // The same user id under another tenant: identity finds no such user there.
    const elsewhere = await signer.sign({
      tenantId: 'acme',
      subject: uid,
      role: 'admin',
      scopes: ['*'],
      ttlSeconds: 300,
    });
    const scopes = await call('GET', '/v1/me/effective-scopes', elsewhere);
    expect(scopes.status).toBe(404);
    expect(scopes.body.detail).toBe('User not found.');
    const me = await call('GET', '/v1/me', elsewhere);
    expect(me.status).toBe(404);
    expect(scopeCache.get('acme', uid)).toBeUndefined();
    // In its own tenant the same user id is found.
    expect((await call('GET', '/v1/me', await token('demo', 'admin@demo.test'))).body.user.uid).toBe(uid);
    scopeCache.invalidateTenant('demo');
  });
});

describe('tenant ids (WS-288)', () => {
  const PATTERN_MESSAGE =
    'Tenant id must be lowercase letters, digits, _ or -, starting with a letter or digit';

  it('WS-288: refuses -a, A and other ids outside the pattern, and accepts the pattern’s forms', () => {
    for (const id of ['-a', 'A', '_a', 'Demo', 'a b', 'a.b', 'a!', '', 'a'.repeat(64)]) {
      const result = tenantIdSchema.safeParse(id);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(PATTERN_MESSAGE);
    }
    for (const id of ['a', '7', 'demo', 'acme-builders', 'site_2', '0-a_b', 'a-', 'a'.repeat(63)]) {
      expect(tenantIdSchema.safeParse(id).success).toBe(true);
    }
  });

  it('WS-288: the API answers 400 for -a and A, and looks valid ids up (404 when there is no such tenant)', async () => {
    for (const id of ['-a', 'A']) {
      const res = await call('GET', `/v1/tenants/${id}/metadata`);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'params.tenantId', message: PATTERN_MESSAGE }]);
    }
    const authorize = await internalPost(harness, '/v1/auth/authorize', {
      tenantId: 'A',
      redirectUri: 'http://localhost:8080/api/auth/callback',
    });
    expect(authorize.status).toBe(400);
    for (const id of ['a', '7', 'site_2', '0-a_b']) {
      const res = await call('GET', `/v1/tenants/${id}/metadata`);
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe('Tenant not found.');
    }
  });

  it('WS-288: the database refuses a tenant row with -a or A as its id, and takes a valid one', async () => {
    for (const id of ['-a', 'A']) {
      await expect(
        admin.query("INSERT INTO identity.tenants (tenant_id, name) VALUES ($1, 'x')", [id]),
      ).rejects.toThrow(/tenants_id_pattern/);
    }
    await admin.query("INSERT INTO identity.tenants (tenant_id, name) VALUES ('0-a_b', 'Valid')");
    const metadata = await call('GET', '/v1/tenants/0-a_b/metadata');
    expect(metadata.status).toBe(200);
    expect(metadata.body).toMatchObject({ id: '0-a_b', name: 'Valid', databaseRegion: 'uk' });
  });
});

describe('every identity route is tenant- and scope-checked (WS-001)', () => {
  /** Every operation of identity's OpenAPI document, with its path parameters filled in. */
  const operations = () =>
    routesOf(harness.baseUrl, (path) =>
      path
        .replace('{tenantId}', 'demo')
        .replace('{uid}', uidOf('manager@demo.test'))
        .replace('{bundleId}', 'viewer')
        .replace('{key}', 'k'.repeat(43))
        .replace('{bucket}', 'signin'),
    );

  const status = (method: string, url: string, headers: Record<string, string> = {}) =>
    routeStatus(harness.baseUrl, method, url, headers);

  it('WS-001: only the sign-in, metadata, JWKS and bff-only routes are public; the bff-only ones need the internal token', async () => {
    const all = await operations();
    const open = all.filter((operation) => operation.public).map((operation) => operation.route);
    expect(open.sort()).toEqual(
      [
        'GET /.well-known/jwks.json',
        'GET /v1/tenants/{tenantId}/metadata',
        'POST /v1/auth/authorize',
        'POST /v1/auth/callback',
        'POST /v1/auth/refresh',
        'POST /v1/auth/logout',
        'POST /v1/auth/logout-all',
        'POST /v1/auth/end-session-url',
        'POST /v1/portal/links/redeem',
        'GET /v1/internal/sessions/{key}',
        'PUT /v1/internal/sessions/{key}',
        'DELETE /v1/internal/sessions/{key}',
        'POST /v1/internal/sessions/{key}/lease',
        'GET /v1/internal/signing-keys',
        'POST /v1/internal/signing-keys/rotate',
        'POST /v1/internal/rate-limits/{bucket}/hit',
        'POST /v1/portal/link-requests',
        'GET /v1/internal/tenants/{tenantId}/scope-holders',
      ].sort(),
    );
    const staff = { authorization: `Bearer ${await token('demo', 'admin@demo.test')}` };
    for (const operation of all.filter(
      (candidate) =>
        candidate.public && /^(POST \/v1\/(auth|portal)|.* \/v1\/internal)/.test(candidate.route),
    )) {
      expect([operation.route, await status(operation.method, operation.url)]).toEqual([
        operation.route,
        401,
      ]);
      // A signed-in administrator is not the bff.
      expect([operation.route, await status(operation.method, operation.url, staff)]).toEqual([
        operation.route,
        401,
      ]);
    }
  });

  it('WS-001: every other route answers 401 without a token and 403 to a portal session', async () => {
    const portal = await harness.definition.context().signer.sign({
      tenantId: 'demo',
      subject: 'portal:sub-1',
      role: 'subcontractor',
      scopes: ['portal.self', '*'],
      ttlSeconds: 300,
      claims: { sctr: 'sub-1' },
    });
    const guarded = (await operations()).filter((operation) => !operation.public);
    expect(guarded.length).toBeGreaterThan(20);
    for (const operation of guarded) {
      expect([operation.route, await status(operation.method, operation.url)]).toEqual([
        operation.route,
        401,
      ]);
      expect([
        operation.route,
        await status(operation.method, operation.url, { authorization: `Bearer ${portal}` }),
      ]).toEqual([operation.route, 403]);
    }
  });

  it('WS-001: the routes without a scope are the member’s own reads, served to a staff caller holding no scope, for their own tenant only', async () => {
    const unscoped = (await operations())
      .filter((operation) => !operation.public && operation.scopes.length === 0)
      .map((operation) => operation.route);
    expect(unscoped.sort()).toEqual(
      [
        'GET /v1/me',
        'PATCH /v1/me',
        'GET /v1/me/effective-scopes',
        'GET /v1/tenant',
        'GET /v1/tenant/footer',
        'GET /v1/tenant/logo',
        'GET /v1/tenant/logo/image',
        'GET /v1/tenant/available-scopes',
        'GET /v1/tenant/entitlements',
        'GET /v1/live',
        'GET /v1/users/{uid}/public-key',
        'GET /v1/users/names',
        'GET /v1/users/directory',
        'GET /v1/users/{uid}/avatar',
        'POST /v1/users/avatars/warm',
      ].sort(),
    );
    const { signer } = harness.definition.context();
    const noScope = await signer.sign({
      tenantId: 'acme',
      subject: uidOf('admin@acme.test'),
      role: 'standard',
      scopes: [],
      ttlSeconds: 300,
    });
    const tenant = await call('GET', '/v1/tenant', noScope);
    expect(tenant.status).toBe(200);
    expect(tenant.body.id).toBe('acme');
    expect((await call('GET', '/v1/tenant/entitlements', noScope)).body).toEqual({ enabled: [] });
    expect((await call('GET', '/v1/tenant/available-scopes', noScope)).status).toBe(200);
    // Colleagues' names (who did what on a record), for the caller's own tenant only: a user of another tenant is
    // not found, and nothing but the name is told.
    const acmeAdmin = uidOf('admin@acme.test');
    const names = await call('GET', `/v1/users/names?ids=${acmeAdmin},${uidOf('admin@demo.test')}`, noScope);
    expect(names.status).toBe(200);
    expect(names.body).toEqual({ items: [{ uid: acmeAdmin, displayName: expect.any(String) }] });
    expect((await call('GET', '/v1/users/names?ids=not-a-uid', noScope)).status).toBe(400);
    // The colleague directory (people to share with): the caller's own tenant's users, name, e-mail and username only.
    const directory = await call('GET', '/v1/users/directory', noScope);
    expect(directory.status).toBe(200);
    const colleagues = directory.body.items as Record<string, unknown>[];
    expect(colleagues.map((colleague) => colleague.uid)).toContain(acmeAdmin);
    expect(colleagues.map((colleague) => colleague.uid)).not.toContain(uidOf('admin@demo.test'));
    expect(Object.keys(colleagues[0] ?? {}).sort()).toEqual([
      'displayName',
      'email',
      'fullName',
      'uid',
      'username',
    ]);
    // A scoped route still needs its scope.
    const users = await call('GET', '/v1/users', noScope);
    expect(users.status).toBe(403);
    expect(users.body.detail).toBe('This requires the users.view permission.');
  });
});

describe('portal magic links (CIS-455)', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  const redeem = (link: string) =>
    internalPost(harness, '/v1/portal/links/redeem', {
      tenantId: 'demo',
      token: new URL(link).searchParams.get('token'),
    });

  it('CIS-455: a link works until 15 minutes after it is made and is refused from then on, and once used', async () => {
    const bearer = await token('demo', 'admin@demo.test');
    // Only Date is faked (the link's expiry is taken from it and compared with it); timers stay real.
    const madeAt = Date.now();
    fakeOnly('Date', madeAt);
    const make = async () => {
      const res = await call('POST', '/v1/portal/links', bearer, { subcontractorId: 'sub-455' });
      expect(res.status).toBe(201);
      return res.body as { magicLink: string; expiresAt: string; expiresIn: string };
    };
    const early = await make();
    const late = await make();
    expect(early.expiresIn).toBe('15 minutes');
    expect(early.expiresAt).toBe(new Date(madeAt + 15 * 60_000).toISOString());
    const stored = await row(
      'SELECT expires_at FROM identity.portal_links WHERE subcontractor_id = $1 LIMIT 1',
      ['sub-455'],
    );
    expect((stored.expires_at as Date).getTime()).toBe(madeAt + 15 * 60_000);

    jest.setSystemTime(madeAt + 15 * 60_000 - 1);
    const inTime = await redeem(early.magicLink);
    expect(inTime.status).toBe(200);
    expect(await inTime.json()).toMatchObject({ subcontractorId: 'sub-455' });

    jest.setSystemTime(madeAt + 15 * 60_000);
    const expired = await redeem(late.magicLink);
    expect(expired.status).toBe(410);
    expect(await expired.json()).toMatchObject({
      code: 'link_expired',
      detail: 'This link has expired. Ask your contractor for a new one.',
    });
    const reused = await redeem(early.magicLink);
    expect(reused.status).toBe(410);
    expect(await reused.json()).toMatchObject({
      code: 'link_used',
      detail: 'This link has already been used. Ask your contractor for a new one.',
    });
  });
});

// Last in the file: it replaces the signing key, so the tokens the tests above keep stop working.
describe('a purged signing key (identity’s verified-token cache)', () => {
  it('refuses a token it had verified once the token’s key is no longer published', async () => {
    const { signer } = harness.definition.context();
    const bearer = await signer.sign({
      tenantId: 'demo',
      subject: uidOf('viewer@demo.test'),
      role: 'standard',
      scopes: [],
      ttlSeconds: 300,
    });
    expect((await call('GET', '/v1/me', bearer)).status).toBe(200);
    expect((await call('GET', '/v1/me', bearer)).status).toBe(200); // verified once, then from the cache

    // The emergency replacement of the runbook: rotate at once, end the old key's publication, reload.
    const leaked = signer.activeKid;
    await signer.rotate({ immediate: true });
    await admin.query('UPDATE identity.signing_keys SET published_until = now() WHERE kid = $1', [leaked]);
    await signer.reload();
    expect(signer.jwks().keys.map((key) => key.kid)).not.toContain(leaked);

    const refused = await eventually(
      async () => {
        const res = await call('GET', '/v1/me', bearer);
        return res.status === 401 ? res : undefined;
      },
      10_000,
      'the purged key’s token refused',
    );
    expect(refused.body.detail).toBe('The access token is not valid.');
  });
});
