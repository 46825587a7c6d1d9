import { internalPost, routesOf, routeStatus } from '@workspace/identity/testing';
import { createSubcontractor, startCisHarness, type CisHarness } from './support.js';

/*
 * WS-001 for cis and notification: every route is tenant- and scope-checked. Read from each service's own
 * /openapi.json (generated from the routes themselves), so a route added later is reviewed too:
 * - cis: no public route; every route answers 401 without a token, names the scopes it needs, answers 403 to a
 *   token of the tenant without them; staff routes refuse a portal session and portal routes a staff token. The
 *   tenant is the token's alone (row-level security: stored-records.int.test.ts › tenant isolation).
 * - notification: called by services only, with the internal token; the tenant is the caller's (cis sends the
 *   token's tenant), and without the internal token every route answers 401.
 */

let h: CisHarness;

/** Routes any signed-in staff user may call, whatever their scopes: what the caller may do. */
const SIGNED_IN_ONLY = ['GET /v1/me/abilities'];

/** Routes for other services only, with their internal token (drive ADR 0046): no user token opens them. */
const INTERNAL_ONLY = ['GET /v1/internal/drive-documents/{kind}/{id}'];

beforeAll(async () => {
  h = await startCisHarness();
});

afterAll(async () => {
  await h.stop();
});

/** A service's routes; any value fills a path parameter: the guards answer before a handler looks for the record. */
const operationsOf = (baseUrl: string) =>
  routesOf(baseUrl, (path) => path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'));

describe('every cis route is tenant- and scope-checked (WS-001)', () => {
  it('has no public route but the internal one; each answers 401 without a token and names its scopes', async () => {
    const all = await operationsOf(h.cisUrl);
    expect(all.length).toBeGreaterThan(40);
    expect(all.filter((operation) => operation.public).map((operation) => operation.route)).toEqual(
      INTERNAL_ONLY,
    );
    for (const operation of all) {
      if (!INTERNAL_ONLY.includes(operation.route))
        expect([operation.route, operation.scopes.length > 0]).toEqual([
          operation.route,
          !SIGNED_IN_ONLY.includes(operation.route),
        ]);
      expect([operation.route, await routeStatus(h.cisUrl, operation.method, operation.url)]).toEqual([
        operation.route,
        401,
      ]);
    }
  });

  it('answers 403 to a token of the tenant without the route’s scopes, staff routes refuse a portal session and portal routes a staff token', async () => {
    const all = await operationsOf(h.cisUrl);
    const unscoped = { authorization: `Bearer ${await h.token([])}` };
    for (const operation of all) {
      expect([
        operation.route,
        await routeStatus(h.cisUrl, operation.method, operation.url, unscoped),
      ]).toEqual([
        operation.route,
        SIGNED_IN_ONLY.includes(operation.route) ? 200 : INTERNAL_ONLY.includes(operation.route) ? 401 : 403,
      ]);
    }

    // A real portal session, from a magic link identity made for a subcontractor of the tenant.
    const admin = await h.signInAs('admin@demo.test');
    const subcontractorId = await createSubcontractor(h, admin, {
      name: 'Rory Review',
      utr: '6666666666',
      nino: '',
      email: 'rory@review.test',
    });
    const invited = await h.call(admin, 'POST', '/subcontractors/invite', { subcontractorId });
    const linkToken = new URL(String(invited.body.magicLink)).searchParams.get('token');
    const redeemed = (await (
      await internalPost(h.identity, '/v1/portal/links/redeem', { tenantId: 'demo', token: linkToken })
    ).json()) as { accessToken: string };
    const portal = { authorization: `Bearer ${redeemed.accessToken}` };
    // Every scope there is, portal.self and '*' included: a staff token is still not a subcontractor's session.
    const staffScopes = [...new Set(all.flatMap((operation) => operation.scopes))];
    const everything = { authorization: `Bearer ${await h.token(['*', ...staffScopes])}` };
    for (const operation of all) {
      const portalRoute = operation.url.startsWith('/v1/portal/');
      if (portalRoute) {
        // Staff tokens, whatever their scopes, are not a subcontractor's session.
        expect([
          operation.route,
          await routeStatus(h.cisUrl, operation.method, operation.url, everything),
        ]).toEqual([operation.route, 403]);
      } else {
        expect([
          operation.route,
          await routeStatus(h.cisUrl, operation.method, operation.url, portal),
        ]).toEqual([operation.route, INTERNAL_ONLY.includes(operation.route) ? 401 : 403]);
      }
    }
  });
});

describe('every notification route needs the internal token (WS-001)', () => {
  it('answers 401 without it, and with a user’s access token instead', async () => {
    const notificationUrl = h.cis.deps.config.NOTIFICATION_URL;
    const all = await operationsOf(notificationUrl);
    expect(all.length).toBeGreaterThan(0);
    const admin = { authorization: `Bearer ${await h.signInAs('admin@demo.test')}` };
    // The bell's routes (ADR 0052) are the signed-in user's own: no token is a 401, a user's token is let in.
    const bell = all.filter((operation) => operation.url.startsWith('/v1/notifications'));
    expect(bell.length).toBeGreaterThan(0);
    for (const operation of bell) {
      expect([operation.route, await routeStatus(notificationUrl, operation.method, operation.url)]).toEqual([
        operation.route,
        401,
      ]);
      const status = await routeStatus(notificationUrl, operation.method, operation.url, admin);
      expect([operation.route, status === 401 || status === 403]).toEqual([operation.route, false]);
    }
    for (const operation of all.filter((candidate) => !bell.includes(candidate))) {
      expect([operation.route, await routeStatus(notificationUrl, operation.method, operation.url)]).toEqual([
        operation.route,
        401,
      ]);
      expect([
        operation.route,
        await routeStatus(notificationUrl, operation.method, operation.url, admin),
      ]).toEqual([operation.route, 401]);
    }
  });
});
