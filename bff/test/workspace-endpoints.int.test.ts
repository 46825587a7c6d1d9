import { randomBytes } from 'node:crypto';
import {
  INTERNAL_TOKEN,
  REDIRECT_URI,
  demoSeed,
  signIn as signInAtIdentity,
  startIdentityHarness,
  type IdentityHarness,
} from '../../services/identity/test/support.js';
import { enabledModules, moduleCatalogue, moduleConfig } from '../../web/src/app/modules.js';
import { startBff, type RunningBff } from '../src/app.js';
import { bffConfigSchema } from '../src/config.js';

/*
 * The workspace endpoints the shell and the sign-in page read, through the bff against the real identity service
 * (PostgreSQL, Kafka, the dev IdP): the whitelist's scopes array, the metadata fallbacks when identity fails, and
 * the tenant's modules as the shell's navigation reads them. identity's answers can be replaced per path to make it
 * fail the ways a network or a proxy does.
 */

const PUBLIC_URL = 'http://localhost:8080';

let harness: IdentityHarness;
let bff: RunningBff;
let base: string;
/** identity's answer for a path, instead of identity's own (undefined: identity answers). */
let replaceIdentity: (path: string) => Response | undefined = () => undefined;

const urlOf = (input: string | URL | Request) =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

beforeAll(async () => {
  harness = await startIdentityHarness();
  bff = await startBff(
    bffConfigSchema.parse({
      PORT: '0',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      IDENTITY_URL: harness.baseUrl,
      INTERNAL_API_TOKEN: INTERNAL_TOKEN,
      PUBLIC_URL,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      SIGNIN_RATE_LIMIT_PER_MINUTE: '1000',
    }),
    {
      fetch: (input, init) =>
        Promise.resolve(replaceIdentity(new URL(urlOf(input)).pathname) ?? fetch(input, init)),
    },
  );
  base = `http://127.0.0.1:${bff.port}`;
});

afterEach(() => {
  replaceIdentity = () => undefined;
});

afterAll(async () => {
  await bff.shutdown('test');
  await harness.stop();
});

/** Response bodies are asserted on, not trusted: reading them untyped is the point. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const read = (res: Response): Promise<any> => res.json();

/** One browser: cookies per origin (deletions honoured) and manual redirects. */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();
  csrf = '';

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const origin = new URL(url).origin;
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    this.jars.set(origin, jar);
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      if (value === '' || /max-age=0/i.test(header)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }

  api(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const { json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (json !== undefined) headers.set('content-type', 'application/json');
    if (this.csrf) headers.set('x-csrf-token', this.csrf);
    return this.fetch(`${base}${path}`, {
      ...rest,
      headers,
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
  }
}

/** Signs in through the bff: /api/auth/login, the IdP's pages and form, then the callback at the bff. */
async function signedIn(email: string): Promise<Browser> {
  const browser = new Browser();
  const login = await browser.api('/api/auth/login?tenant=demo');
  let url = login.headers.get('location') ?? '';
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(REDIRECT_URI)) {
      const callback = await browser.fetch(`${base}${url.slice(PUBLIC_URL.length)}`);
      expect(callback.status).toBe(302);
      const session = await browser.api('/api/auth/session');
      expect(session.status).toBe(200);
      browser.csrf = ((await read(session)) as { csrfToken: string }).csrfToken;
      return browser;
    }
    let response = await browser.fetch(url);
    if (response.status === 200 && /\/interaction\//.test(url)) {
      const page = await response.text();
      const action = /action="([^"]+)"/.exec(page)?.[1] ?? '';
      response = await browser.fetch(new URL(action, url).toString(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password: demoSeed.password }).toString(),
      });
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`sign-in stopped at ${url} with ${response.status}`);
    url = new URL(location, url).toString();
  }
  throw new Error('too many redirects during sign-in');
}

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
    const res = await new Browser().api('/api/metadata', { headers: { 'x-tenant-id': 'demo' } });
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
    const unknown = await new Browser().api('/api/metadata', { headers: { 'x-tenant-id': 'nobody' } });
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
