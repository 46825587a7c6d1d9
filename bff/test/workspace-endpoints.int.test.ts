import {
  demoSeed,
  signIn as signInAtIdentity,
  startIdentityHarness,
  type IdentityHarness,
} from '@workspace/identity/testing';
import { enabledModules, moduleCatalogue, moduleConfig } from '@workspace/web/modules';
import type { RunningBff } from '../src/app.js';
import { TestBrowser, read, signedInBrowser, startTestBff, urlOf } from './support.js';

/*
 * The workspace endpoints the shell and the sign-in page read, through the bff against the real identity service
 * (PostgreSQL, Kafka, the dev IdP): the whitelist's scopes array, the metadata fallbacks when identity fails, and
 * the tenant's modules as the shell's navigation reads them. identity's answers can be replaced per path to make it
 * fail the ways a network or a proxy does.
 */

let harness: IdentityHarness;
let bff: RunningBff;
let base: string;
/** identity's answer for a path, instead of identity's own (undefined: identity answers). */
let replaceIdentity: (path: string) => Response | undefined = () => undefined;

beforeAll(async () => {
  harness = await startIdentityHarness();
  ({ bff, base } = await startTestBff(
    harness.baseUrl,
    {},
    {
      fetch: (input, init) =>
        Promise.resolve(replaceIdentity(new URL(urlOf(input)).pathname) ?? fetch(input, init)),
    },
  ));
});

afterEach(() => {
  replaceIdentity = () => undefined;
});

afterAll(async () => {
  await bff.shutdown('test');
  await harness.stop();
});

/** A browser signed in at the bff; it sends its session's CSRF token with every call. */
const signedIn = async (email: string) =>
  (await signedInBrowser(base, { email, csrfOnEveryCall: true })).browser;

describe('GET /api/tenant/available-scopes (WS-332)', () => {
  it('WS-332: returns the tenant’s scopes array: every non-system scope unrestricted, the whitelist once one is set', async () => {
    const browser = await signedIn('admin@demo.test');
    const open = await browser.api('/api/tenant/available-scopes?tid=demo');
    expect(open.status).toBe(200);
    const body = await read(open);
    expect(Object.keys(body).sort()).toEqual(['restricted', 'scopes']);
    expect(body.restricted).toBe(false);
    expect(Array.isArray(body.scopes)).toBe(true);
    expect(body.scopes).toEqual(expect.arrayContaining(['notes.view', 'schedule.read', 'cis.inv.read']));
    expect(body.scopes.filter((scope: string) => scope.startsWith('system.'))).toEqual([]);

    const admin = await signInAtIdentity(harness, 'demo', 'admin@demo.test', demoSeed.password);
    const setWhitelist = (scopes: string[] | null) =>
      fetch(`${harness.baseUrl}/v1/tenant/available-scopes`, {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${admin.body.accessToken as string}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ scopes }),
      });
    expect((await setWhitelist(['notes.view', 'schedule.read'])).status).toBe(204);
    try {
      const restricted = await browser.api('/api/tenant/available-scopes?tid=demo');
      expect(await read(restricted)).toEqual({ scopes: ['notes.view', 'schedule.read'], restricted: true });
    } finally {
      expect((await setWhitelist(null)).status).toBe(204);
    }
  });
});

describe('GET /api/metadata when identity fails (WS-426)', () => {
  const metadata = async () => {
    const res = await new TestBrowser(base).api('/api/metadata', { headers: { 'x-tenant-id': 'demo' } });
    expect(res.status).toBe(200);
    return read(res);
  };
  const fallback = (error: string) => ({ id: 'demo', name: null, databaseRegion: 'uk', branding: {}, error });
  const onMetadata = (answer: () => Response) => {
    replaceIdentity = (path) => (path === '/v1/tenants/demo/metadata' ? answer() : undefined);
  };

  it("WS-426: identity's answer without a message gives 'Fetch error', and the region falls back to uk", async () => {
    onMetadata(() => new Response(null, { status: 500 }));
    expect(await metadata()).toEqual(fallback('Fetch error'));
    onMetadata(
      () =>
        new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
    );
    expect(await metadata()).toEqual(fallback('Fetch error'));
    onMetadata(
      () =>
        new Response(JSON.stringify({ status: 503, code: 'unavailable' }), {
          status: 503,
          headers: { 'content-type': 'application/problem+json' },
        }),
    );
    expect(await metadata()).toEqual(fallback('Fetch error'));
  });

  it("WS-426: identity's answer with a message gives that message", async () => {
    onMetadata(
      () =>
        new Response(
          JSON.stringify({ status: 503, code: 'unavailable', detail: 'Identity is being upgraded.' }),
          { status: 503, headers: { 'content-type': 'application/problem+json' } },
        ),
    );
    expect(await metadata()).toEqual(fallback('Identity is being upgraded.'));
    replaceIdentity = () => undefined;
    const unknown = await new TestBrowser(base).api('/api/metadata', {
      headers: { 'x-tenant-id': 'nobody' },
    });
    expect(await read(unknown)).toEqual({
      id: 'nobody',
      name: null,
      databaseRegion: 'uk',
      branding: {},
      error: 'Tenant not found.',
    });
    expect(await metadata()).toMatchObject({ id: 'demo', databaseRegion: 'uk', error: null });
  });
});

describe('the tenant’s modules as the shell reads them (WS-006, WS-216)', () => {
  it('WS-216: the session carries every module with enabled and config; the navigation leaves a disabled one out', async () => {
    const browser = await signedIn('admin@demo.test');
    const session = await read(await browser.api('/api/auth/session'));
    expect(session.tenant.modules).toEqual(demoSeed.tenant.modules);
    expect(session.tenant.modules).toContainEqual({ id: 'chat', enabled: false, config: {} });
    // What the shell's navigation lists (web/src/app/modules.ts, read by Shell.tsx from the session).
    expect(enabledModules(session.tenant.modules).map((entry) => entry.label)).toEqual([
      'Schedule',
      'Notes',
      'Drive',
      'CIS',
    ]);
  });

  it('WS-006, WS-216: an admin’s module change (enabled, config) is saved and the renewed session shows it to the shell', async () => {
    const browser = await signedIn('admin@demo.test');
    const modules = [
      { id: 'schedule', enabled: true, config: { defaultView: 'week' } },
      { id: 'notes', enabled: false, config: {} },
      { id: 'cis', enabled: true, config: { testingTools: true } },
    ];
    try {
      const saved = await browser.api('/api/tenant', { method: 'PATCH', json: { modules } });
      expect(saved.status).toBe(200);
      expect((await read(saved)).modules).toEqual(modules);
      expect((await read(await browser.api('/api/tenant'))).modules).toEqual(modules);

      const renewed = await browser.api('/api/auth/set-token', { method: 'POST', json: {} });
      expect(renewed.status).toBe(200);
      const tenantModules = (await read(renewed)).tenant.modules;
      expect(tenantModules).toEqual(modules);
      const navigation = enabledModules(tenantModules);
      expect(navigation.map((entry) => entry.id)).toEqual(['schedule', 'cis']);
      const schedule = moduleCatalogue.find((entry) => entry.id === 'schedule');
      if (!schedule) throw new Error('no schedule module');
      expect(moduleConfig(schedule, tenantModules[0].config)).toMatchObject({
        defaultView: 'week',
        weekStartsOn: 'monday',
      });
    } finally {
      const restored = await browser.api('/api/tenant', {
        method: 'PATCH',
        json: { modules: demoSeed.tenant.modules },
      });
      expect(restored.status).toBe(200);
    }
  });
});
