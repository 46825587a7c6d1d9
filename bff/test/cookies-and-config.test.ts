import { ConfigError, loadConfig } from '@workspace/kit';
import { bffConfigSchema, callbackUrl, isSecureOrigin } from '../src/config.js';
import { SIGNIN_TTL_MS, SignInSealer, cookieOptions, signInCookieOptions } from '../src/cookies.js';

const SECRET = 'a-session-secret-of-at-least-32-characters';
const pending = {
  state: 'state-1',
  nonce: 'nonce-1',
  codeVerifier: 'v'.repeat(43),
  tenantId: 'demo',
  returnTo: '/schedule',
};

describe('the sign-in cookie (AES-256-GCM under a key derived from SESSION_SECRET)', () => {
  it('opens what it sealed, and the sealed value shows none of it', () => {
    const sealer = new SignInSealer(SECRET);
    const sealed = sealer.seal(pending);
    expect(sealed).toMatch(/^v1\.signin\.[A-Za-z0-9_.-]+$/);
    expect(sealed).not.toContain('nonce-1');
    expect(sealer.open(sealed)).toMatchObject(pending);
  });

  it('refuses a tampered value, one sealed with another secret, garbage and nothing', () => {
    const sealer = new SignInSealer(SECRET);
    const sealed = sealer.seal(pending);
    const parts = sealed.split('.');
    const ciphertext = parts[4] ?? '';
    parts[4] = `${ciphertext.slice(0, -2)}${ciphertext.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(sealer.open(parts.join('.'))).toBeUndefined();
    expect(new SignInSealer(`${SECRET}-other`).open(sealed)).toBeUndefined();
    expect(sealer.open('not-a-cookie')).toBeUndefined();
    expect(sealer.open(undefined)).toBeUndefined();
  });

  it('expires after 10 minutes whatever the browser keeps', () => {
    let now = 5_000_000;
    const sealer = new SignInSealer(SECRET, () => now);
    const sealed = sealer.seal(pending);
    now += SIGNIN_TTL_MS - 1;
    expect(sealer.open(sealed)).toBeDefined();
    now += 1;
    expect(sealer.open(sealed)).toBeUndefined();
  });
});

describe('cookie options', () => {
  it('are httpOnly and SameSite=Lax, Secure only when asked; the sign-in cookie is scoped to /api/auth', () => {
    expect(cookieOptions(false)).toEqual({ httpOnly: true, sameSite: 'lax', secure: false, path: '/' });
    expect(cookieOptions(true).secure).toBe(true);
    expect(signInCookieOptions(true)).toEqual({
      httpOnly: true,
      sameSite: 'lax',
      secure: true,
      path: '/api/auth',
      maxAge: 600_000,
    });
  });
});

describe('configuration', () => {
  const env = {
    IDENTITY_URL: 'http://identity:8081/',
    INTERNAL_API_TOKEN: 'i'.repeat(32),
    PUBLIC_URL: 'https://workspace.example.com/',
    SESSION_SECRET: SECRET,
  };

  it('derives the callback URL and Secure cookies from PUBLIC_URL', () => {
    const config = loadConfig(bffConfigSchema, env);
    expect(config.PUBLIC_URL).toBe('https://workspace.example.com');
    expect(config.IDENTITY_URL).toBe('http://identity:8081');
    expect(callbackUrl(config)).toBe('https://workspace.example.com/api/auth/callback');
    expect(isSecureOrigin(config)).toBe(true);
    expect(isSecureOrigin(loadConfig(bffConfigSchema, { ...env, PUBLIC_URL: 'http://localhost:8080' }))).toBe(
      false,
    );
    expect(config).toMatchObject({
      PORT: 8080,
      SIGNIN_RATE_LIMIT_PER_MINUTE: 20,
      SESSION_IDLE_TIMEOUT_SECONDS: 1800,
      SESSION_ABSOLUTE_TIMEOUT_SECONDS: 12 * 3600,
    });
  });

  it('bounds a staff session: 30 minutes idle and 12 hours in all by default, never more than 12 hours in all (ASVS 3.3.2)', () => {
    expect(
      loadConfig(bffConfigSchema, {
        ...env,
        SESSION_IDLE_TIMEOUT_SECONDS: '600',
        SESSION_ABSOLUTE_TIMEOUT_SECONDS: '3600',
      }),
    ).toMatchObject({ SESSION_IDLE_TIMEOUT_SECONDS: 600, SESSION_ABSOLUTE_TIMEOUT_SECONDS: 3600 });
    expect(() =>
      loadConfig(bffConfigSchema, { ...env, SESSION_ABSOLUTE_TIMEOUT_SECONDS: String(12 * 3600 + 1) }),
    ).toThrow(/SESSION_ABSOLUTE_TIMEOUT_SECONDS/);
  });

  it('names every wrong variable: a short secret, a PUBLIC_URL with a path, a bad default tenant', () => {
    let error: unknown;
    try {
      loadConfig(bffConfigSchema, {
        ...env,
        SESSION_SECRET: 'short',
        PUBLIC_URL: 'https://workspace.example.com/app',
        DEFAULT_TENANT: 'Not A Tenant',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const issues = (error as ConfigError).issues.join('\n');
    expect(issues).toContain('SESSION_SECRET');
    expect(issues).toContain('PUBLIC_URL');
    expect(issues).toContain('DEFAULT_TENANT');
    expect(issues).not.toContain('short');
  });

  it('refuses a PUBLIC_URL that is not a URL at all, and one that is not http(s)', () => {
    for (const PUBLIC_URL of ['workspace', 'ftp://workspace.example.com']) {
      expect(() => loadConfig(bffConfigSchema, { ...env, PUBLIC_URL })).toThrow(/PUBLIC_URL/);
    }
  });
});
