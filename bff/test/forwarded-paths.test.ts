import { staysUnderBase } from '../src/http/service-proxy.js';

/*
 * The forwarded path check (security review 2026-11-26, L9): a browser path under /api/<prefix> reaches the service
 * only when it stays under the service's API path once a URL parser has resolved it.
 */

describe('staysUnderBase', () => {
  const cis = 'http://cis:8080/v1';
  const portal = 'http://cis:8080/v1/portal';

  it('lets ordinary paths and queries through, encoded dots in the query included', () => {
    for (const path of [
      '',
      '/',
      '?page=2',
      '/invoices',
      '/invoices/123/approve',
      '/invoices?search=%2e%2e',
    ]) {
      expect([path, staysUnderBase(cis, path)]).toEqual([path, true]);
    }
    expect(staysUnderBase(portal, '/me')).toBe(true);
  });

  it('refuses dot segments, encoded dots, slashes and backslashes in any case', () => {
    const escapes = [
      '/../metrics',
      '/./invoices',
      '/invoices/..',
      '/%2e%2e/metrics',
      '/%2E%2e/metrics',
      '/.%2e/metrics',
      '/%2e./metrics',
      '/%2e/invoices',
      '/invoices%2f..%2fmetrics',
      '/invoices%2F..',
      '/..%5cmetrics',
      '/..\\metrics',
      '/invoices\\..\\..\\metrics',
    ];
    for (const path of escapes) expect([path, staysUnderBase(cis, path)]).toEqual([path, false]);
  });

  it('refuses a portal path that would climb to the staff API or the service root', () => {
    expect(staysUnderBase(portal, '/%2e%2e/invoices')).toBe(false);
    expect(staysUnderBase(portal, '/%2e%2e/%2e%2e/metrics')).toBe(false);
  });

  it('refuses a path that resolves beside the base path rather than under it', () => {
    // Without its leading slash a path would join the base's last segment (`/v1extra`): the resolved-URL rule holds.
    expect(staysUnderBase(cis, 'extra')).toBe(false);
  });
});
