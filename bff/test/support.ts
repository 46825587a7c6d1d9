// What the bff's integration tests share: a bff in front of an identity harness (or of the CIS stack's identity),
// and a browser reduced to what the bff's routes need (cookie jars, manual redirects, the CSRF header) with the
// sign-in through the bff and the dev IdP's own pages.
import { randomBytes } from 'node:crypto';
import {
  INTERNAL_TOKEN,
  REDIRECT_URI,
  demoSeed,
  seedPassword,
  signIn as signInAtIdentity,
  type IdentityHarness,
} from '@workspace/identity/testing';
import { startBff, type BffDeps, type RunningBff } from '../src/app.js';
import { bffConfigSchema, type BffConfig } from '../src/config.js';

/**
 * The bff's public origin in these tests. identity's test harness registers its callback as the redirect URI, so
 * the browser below sends the IdP's redirect there to the bff's real port.
 */
export const PUBLIC_URL = 'http://localhost:8080';

/**
 * A test bff's settings: in front of identity at `identityUrl`, on any free port, PUBLIC_URL, a session secret of
 * its own and a sign-in rate limit no test reaches; then the overrides.
 */
export function testBffConfig(identityUrl: string, overrides: Record<string, string> = {}): BffConfig {
  return bffConfigSchema.parse({
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    IDENTITY_URL: identityUrl,
    INTERNAL_API_TOKEN: INTERNAL_TOKEN,
    PUBLIC_URL,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    SIGNIN_RATE_LIMIT_PER_MINUTE: '1000',
    ...overrides,
  });
}

/** A bff started with testBffConfig (and the test's own dependencies: its fetch, its clock), and its local address. */
export async function startTestBff(
  identityUrl: string,
  overrides: Record<string, string> = {},
  deps: BffDeps = {},
): Promise<{ bff: RunningBff; base: string }> {
  const bff = await startBff(testBffConfig(identityUrl, overrides), deps);
  return { bff, base: `http://127.0.0.1:${bff.port}` };
}

/** Response bodies are asserted on, not trusted: reading them untyped is the point (like supertest's body). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const read = (res: Response): Promise<any> => res.json();

/** The URL of anything fetch takes. */
export const urlOf = (input: string | URL | Request): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

/**
 * One browser: manual redirects and a cookie jar per origin, or per host name with `cookiesBy: 'host'` (as browsers
 * keep cookies: the port does not separate them, so bffs on two ports of one host share them). A cookie set empty,
 * with Max-Age=0 or with an Expires in the past is deleted.
 */
export class TestBrowser {
  private readonly jars = new Map<string, Map<string, string>>();
  /** Every Set-Cookie header received, in order. */
  readonly setCookies: string[] = [];
  /** Sent as x-csrf-token with every api call that names no token of its own (nothing while empty). */
  csrf = '';

  /** `base`: the bff that api() calls. */
  constructor(
    private readonly base: string,
    private readonly options: { cookiesBy?: 'origin' | 'host' } = {},
  ) {}

  private jar(url: string): Map<string, string> {
    const parsed = new URL(url);
    const key = this.options.cookiesBy === 'host' ? parsed.hostname : parsed.origin;
    const jar = this.jars.get(key) ?? new Map<string, string>();
    this.jars.set(key, jar);
    return jar;
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const jar = this.jar(url);
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const header of response.headers.getSetCookie()) {
      this.setCookies.push(header);
      const [pair = '', ...attributes] = header.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some(
        (attribute) =>
          /^\s*max-age=0$/i.test(attribute) ||
          (/^\s*expires=/i.test(attribute) && Date.parse(attribute.split('=')[1] ?? '') < Date.now()),
      );
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }

  /** A cookie the browser holds for the bff. */
  cookie(name: string): string | undefined {
    return this.jar(this.base).get(name);
  }

  /** The Set-Cookie header last received for a cookie. */
  lastSetCookie(name: string): string | undefined {
    return this.setCookies.filter((header) => header.startsWith(`${name}=`)).at(-1);
  }

  /** A call of the bff, with a JSON body when `json` is given and the CSRF token `csrf` (else this.csrf). */
  api(path: string, init: RequestInit & { json?: unknown; csrf?: string } = {}): Promise<Response> {
    return this.apiAt(this.base, path, init);
  }

  /** api() of the bff at `base` (another replica). */
  apiAt(base: string, path: string, init: RequestInit & { json?: unknown; csrf?: string } = {}) {
    const { json, csrf = this.csrf, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (json !== undefined) headers.set('content-type', 'application/json');
    if (csrf) headers.set('x-csrf-token', csrf);
    return this.fetch(`${base}${path}`, {
      ...rest,
      headers,
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
  }
}

/**
 * A full sign-in through the bff at `base`: /api/auth/login, the IdP's redirects, login page and form, then the
 * IdP's redirect to the callback (sent to the bff's real port). Answers the login, the callback and the login page.
 */
export async function signInThroughBff(
  browser: TestBrowser,
  base: string,
  options: { tenant: string; email: string; password?: string; returnTo?: string; prompt?: 'login' },
): Promise<{ login: Response; callback: Response; loginPage: string }> {
  const { tenant, email, password = seedPassword(tenant) } = options;
  const query = new URLSearchParams({ tenant });
  if (options.returnTo !== undefined) query.set('returnTo', options.returnTo);
  if (options.prompt !== undefined) query.set('prompt', options.prompt);
  const login = await browser.apiAt(base, `/api/auth/login?${query.toString()}`);
  let url = login.headers.get('location') ?? '';
  if (login.status !== 302 || !url.startsWith('http')) {
    throw new Error(`login answered ${login.status} ${url}`);
  }
  let loginPage = '';
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(REDIRECT_URI)) {
      const callback = await browser.fetch(`${base}${url.slice(PUBLIC_URL.length)}`);
      return { login, callback, loginPage };
    }
    let response = await browser.fetch(url);
    if (response.status === 200 && /\/interaction\//.test(url)) {
      loginPage = await response.text();
      const action = /action="([^"]+)"/.exec(loginPage)?.[1] ?? '';
      response = await browser.fetch(new URL(action, url).toString(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password }).toString(),
      });
    } else if (response.status === 200) {
      response = await submitSelfPostingForm(browser, await response.text(), url);
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`sign-in stopped at ${url} with ${response.status}`);
    url = new URL(location, url).toString();
  }
  throw new Error('too many redirects during sign-in');
}

/**
 * A page the IdP's script submits at once (its logout page; ending the previous account's session when another
 * signs in): posts its hidden fields as the browser would, and answers the IdP's response.
 */
export async function submitSelfPostingForm(
  browser: TestBrowser,
  html: string,
  url: string,
): Promise<Response> {
  const action = /<form [^>]*method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action || !/\.submit\(\)/.test(html)) throw new Error(`stopped at ${url}: ${html}`);
  const fields = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(
    ([, name = '', value = '']): [string, string] => [name, value],
  );
  return browser.fetch(new URL(action, url).toString(), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

/**
 * A new browser signed in at the bff at `base` (the callback answers 302, /api/auth/session 200), and its session's
 * CSRF token; `csrfOnEveryCall` has the browser send that token with every api call.
 */
export async function signedInBrowser(
  base: string,
  options: {
    email: string;
    tenant?: string;
    cookiesBy?: 'origin' | 'host';
    csrfOnEveryCall?: boolean;
  },
): Promise<{ browser: TestBrowser; csrf: string }> {
  const { email, tenant = 'demo', cookiesBy } = options;
  const browser = new TestBrowser(base, { cookiesBy });
  const { callback } = await signInThroughBff(browser, base, { tenant, email });
  expect(callback.status).toBe(302);
  const session = await browser.api('/api/auth/session');
  expect(session.status).toBe(200);
  const csrf = ((await read(session)) as { csrfToken: string }).csrfToken;
  if (options.csrfOnEveryCall) browser.csrf = csrf;
  return { browser, csrf };
}

/** A magic link for a subcontractor of demo, made at identity by demo's admin (signed in through the real flow). */
export async function demoPortalLink(harness: IdentityHarness, subcontractorId: string): Promise<URL> {
  const { body } = await signInAtIdentity(harness, 'demo', 'admin@demo.test', demoSeed.password);
  const created = await fetch(`${harness.baseUrl}/v1/portal/links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${String(body.accessToken)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ subcontractorId }),
  });
  return new URL(((await read(created)) as { magicLink: string }).magicLink);
}
