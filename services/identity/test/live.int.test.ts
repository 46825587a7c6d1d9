// Live updates (GET /v1/live): identity's recorded changes reach every open stream of the tenant as Server-Sent
// Events (PostgreSQL NOTIFY inside the change's transaction, LISTEN per replica), and no other tenant's stream.
import { eventually } from '@workspace/kit/testing';
import {
  accessToken,
  callIdentity,
  demoSeed,
  internalPost,
  startIdentityHarness,
  type IdentityHarness,
} from './support.js';

let harness: IdentityHarness;

const token = (tenant: string, email: string) => accessToken(harness, tenant, email);

/** The status of one call of identity's API. */
const call = async (method: string, path: string, bearer: string, body?: unknown): Promise<number> =>
  (await callIdentity(harness, method, path, bearer, body)).status;

interface LiveEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Opens GET /v1/live and collects its events (and its raw text) until closed. */
async function openLive(bearer: string) {
  const controller = new AbortController();
  const response = await fetch(`${harness.baseUrl}/v1/live`, {
    headers: { authorization: `Bearer ${bearer}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let raw = '';
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        raw += new TextDecoder().decode(value);
      }
    } catch {
      // aborted
    }
  })();
  const events = (): LiveEvent[] =>
    raw
      .split('\n\n')
      .map((block) => {
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        return event && data ? { event, data: JSON.parse(data) as Record<string, unknown> } : undefined;
      })
      .filter((entry): entry is LiveEvent => entry !== undefined);
  return {
    raw: () => raw,
    events,
    /** Waits for an event of that name whose data matches. */
    expect: async (event: string, data: Record<string, unknown>) => {
      await eventually(
        () =>
          Promise.resolve(
            events().some(
              (entry) =>
                entry.event === event &&
                Object.entries(data).every(
                  ([key, value]) => JSON.stringify(entry.data[key]) === JSON.stringify(value),
                ),
            ),
          ),
        10_000,
        `live event ${event} ${JSON.stringify(data)}`,
      );
    },
    close: async () => {
      controller.abort();
      await pump;
    },
  };
}

beforeAll(async () => {
  harness = await startIdentityHarness();
});

afterAll(async () => {
  await harness.stop();
});

describe('live updates', () => {
  it("sends branding, logo, whitelist, role-bundle and user changes to every open stream of the tenant and nothing to another tenant's", async () => {
    const admin = await token('demo', 'admin@demo.test');
    const viewer = await token('demo', 'viewer@demo.test');
    const acmeAdmin = await token('acme', 'admin@acme.test');
    const first = await openLive(admin);
    const second = await openLive(viewer);
    const acme = await openLive(acmeAdmin);
    expect(first.raw()).toContain('retry: 5000');

    expect(await call('PATCH', '/v1/tenant', admin, { branding: { successColor: '#10B981' } })).toBe(200);
    expect(await call('PUT', '/v1/tenant/logo', admin, { kind: 'text', text: 'Demo Live' })).toBe(200);
    expect(
      await call('PUT', '/v1/tenant/available-scopes', admin, { scopes: ['users.view', 'roles.manage'] }),
    ).toBe(204);
    expect(await call('PUT', '/v1/tenant/available-scopes', admin, { scopes: null })).toBe(204);
    expect(
      await call('PUT', '/v1/role-bundles/live-bundle', admin, { name: 'Live', scopes: ['users.view'] }),
    ).toBe(204);
    expect(await call('PATCH', '/v1/me', viewer, { status: 'busy' })).toBe(200);
    const viewerUid = demoSeed.users.find((user) => user.email === 'viewer@demo.test')?.uid;

    for (const stream of [first, second]) {
      await stream.expect('tenant', { changed: ['branding'] });
      await stream.expect('tenant', { changed: ['logo'] });
      await stream.expect('whitelist', { restricted: true });
      await stream.expect('whitelist', { restricted: false });
      await stream.expect('roles', { bundleId: 'live-bundle', deleted: false });
      await stream.expect('user', { uid: viewerUid, changed: ['status'] });
    }
    // Ids and what changed only: no colours, logo text, scopes, names or emails.
    for (const secret of ['#10B981', 'Demo Live', 'users.view', 'viewer@demo.test', 'busy']) {
      expect(first.raw()).not.toContain(secret);
    }

    // Acme's stream stays quiet through all of it, and hears its own tenant's change.
    expect(acme.events()).toEqual([]);
    expect(await call('PATCH', '/v1/tenant', acmeAdmin, { branding: { dangerColor: '#F43F5E' } })).toBe(200);
    await acme.expect('tenant', { changed: ['branding'] });
    expect(acme.events()).toHaveLength(1);
    // A demo change made after acme's reaches the demo stream after it would have (one listener hears the
    // changes in commit order): once it has arrived, the demo stream has had its chance to hear acme's, and did not.
    expect(
      await call('PUT', '/v1/role-bundles/live-barrier', admin, { name: 'Barrier', scopes: ['users.view'] }),
    ).toBe(204);
    await first.expect('roles', { bundleId: 'live-barrier', deleted: false });
    expect(first.events().filter((entry) => entry.event === 'tenant')).toHaveLength(2);

    await Promise.all([first.close(), second.close(), acme.close()]);
  });

  it('refuses callers without a token and portal sessions', async () => {
    expect((await fetch(`${harness.baseUrl}/v1/live`)).status).toBe(401);
    const cisAdmin = await token('demo', 'cis.admin@demo.test');
    const created = await fetch(`${harness.baseUrl}/v1/portal/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cisAdmin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ subcontractorId: 'sub-live' }),
    });
    const link = new URL(((await created.json()) as { magicLink: string }).magicLink);
    const redeemed = await internalPost(harness, '/v1/portal/links/redeem', {
      tenantId: link.searchParams.get('tid'),
      token: link.searchParams.get('token'),
    });
    const portal = (await redeemed.json()) as { accessToken: string };
    const refused = await fetch(`${harness.baseUrl}/v1/live`, {
      headers: { authorization: `Bearer ${portal.accessToken}`, accept: 'text/event-stream' },
    });
    expect(refused.status).toBe(403);
  });
});
