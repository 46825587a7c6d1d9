import {
  csrfTokensMatch,
  parseCookies,
  safeReturnTo,
  contentSecurityPolicyDirectives,
} from '../src/security.js';

describe('safeReturnTo: only a path on this origin', () => {
  it.each([
    ['/schedule', '/schedule'],
    ['/notes/abc?note=1#top', '/notes/abc?note=1#top'],
    ['/schedule?cal=team&view=week', '/schedule?cal=team&view=week'],
    ['/a/../b', '/b'],
    ['/', '/'],
  ])('keeps %s as %s', (input, expected) => {
    expect(safeReturnTo(input)).toBe(expected);
  });

  it.each([
    [undefined],
    [''],
    ['schedule'],
    ['https://evil.example/'],
    ['//evil.example/path'],
    ['/\\evil.example'],
    ['\\\\evil.example'],
    ['/.//evil.example'],
    ['/..//evil.example'],
    ['/\t/evil.example'],
    ['/\n/evil.example'],
    ['javascript:alert(1)'],
    [' /schedule'],
    [`/${'a'.repeat(2048)}`],
  ])('turns %j into /', (input) => {
    expect(safeReturnTo(input)).toBe('/');
  });
});

describe('csrfTokensMatch', () => {
  const token = 'Qm9vdHN0cmFwLXRva2VuLXZhbHVlLTMyLWJ5dGVz';

  it('accepts exactly the session token', () => {
    expect(csrfTokensMatch(token, token)).toBe(true);
  });

  it.each([
    ['a missing header', undefined],
    ['an empty header', ''],
    ['a different token of the same length', `${token.slice(0, -1)}x`],
    ['a prefix', token.slice(0, 10)],
    ['a longer value', `${token}x`],
    ['a non-string value', ['a', 'b']],
  ])('refuses %s', (_name, provided) => {
    expect(csrfTokensMatch(token, provided)).toBe(false);
  });

  it('refuses everything when there is no session token', () => {
    expect(csrfTokensMatch(undefined, token)).toBe(false);
    expect(csrfTokensMatch('', '')).toBe(false);
  });
});

describe('parseCookies', () => {
  it('reads names and values, decodes them and keeps the first of a repeated name', () => {
    const cookies = parseCookies('ws_session=abc; other="quoted"; enc=a%20b; ws_session=second; broken; =x');
    expect(cookies.get('ws_session')).toBe('abc');
    expect(cookies.get('other')).toBe('quoted');
    expect(cookies.get('enc')).toBe('a b');
    expect(cookies.has('broken')).toBe(false);
    expect(cookies.size).toBe(3);
  });

  it('keeps a value that is not valid percent-encoding as it is', () => {
    expect(parseCookies('a=%E0%A4%A').get('a')).toBe('%E0%A4%A');
  });

  it('reads nothing from no header', () => {
    expect(parseCookies(undefined).size).toBe(0);
  });
});

describe('contentSecurityPolicyDirectives', () => {
  it('allows scripts from this origin only, inline styles for antd, and never framing', () => {
    const directives = contentSecurityPolicyDirectives(false);
    // Scripts from this origin only; WebAssembly may be compiled (the uploader's hashing), JavaScript never evaluated.
    expect(directives.scriptSrc).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directives.styleSrc).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives.frameAncestors).toEqual(["'none'"]);
    expect(directives.connectSrc).toEqual(["'self'"]);
    expect(directives).not.toHaveProperty('upgradeInsecureRequests');
    expect(contentSecurityPolicyDirectives(true)).toHaveProperty('upgradeInsecureRequests', []);
  });
});

describe('contentSecurityPolicyDirectives with the object store (ADR 0049)', () => {
  const store = 'https://files.uk.example.com';

  it("lets the SPAs PUT upload parts to the object store's origin and show its images, media and PDFs", () => {
    const directives = contentSecurityPolicyDirectives(true, store);
    expect(directives.connectSrc).toEqual(["'self'", store]);
    expect(directives.imgSrc).toEqual(["'self'", 'data:', 'blob:', store]);
    expect(directives.mediaSrc).toEqual(["'self'", store]);
    expect(directives.frameSrc).toEqual(["'self'", store]);
    expect(directives.objectSrc).toEqual([store]);
  });

  it('loosens nothing else: scripts, styles, fonts, framing and forms stay as they were', () => {
    const without = contentSecurityPolicyDirectives(true);
    const withStore = contentSecurityPolicyDirectives(true, store);
    for (const name of [
      'defaultSrc',
      'scriptSrc',
      'scriptSrcAttr',
      'styleSrc',
      'fontSrc',
      'frameAncestors',
      'baseUri',
      'formAction',
    ]) {
      expect(withStore[name]).toEqual(without[name]);
    }
    expect(without.objectSrc).toEqual(["'none'"]);
    expect(without).not.toHaveProperty('mediaSrc');
    expect(without).not.toHaveProperty('frameSrc');
  });
});
