// Security review L1: identity's user and role routes let no caller raise anyone, themselves included, beyond what
// they hold; only an administrator gives or takes away administration.
import { callIdentity, demoSeed, signIn, startIdentityHarness, type IdentityHarness } from './support.js';

let harness: IdentityHarness;
let admin: string;
/** clerk@demo.test with the cis-clerk bundle plus "people" (users.view, users.manage, roles.manage): not an admin. */
let clerk: string;

const uid = (email: string) => demoSeed.users.find((user) => user.email === email)?.uid ?? '';
const call = (method: string, path: string, bearer: string, body?: unknown) =>
  callIdentity(harness, method, path, bearer, body);
const accessToken = async (email: string) =>
  (await signIn(harness, 'demo', email, demoSeed.password)).body.accessToken as string;

beforeAll(async () => {
  harness = await startIdentityHarness();
  admin = await accessToken('admin@demo.test');
  const people = { name: 'People', scopes: ['users.view', 'users.manage', 'roles.manage'] };
  expect((await call('PUT', '/v1/role-bundles/people', admin, people)).status).toBe(204);
  const clerkBundles = { bundleIds: ['cis-clerk', 'people'] };
  expect((await call('PATCH', `/v1/users/${uid('clerk@demo.test')}`, admin, clerkBundles)).status).toBe(200);
  clerk = await accessToken('clerk@demo.test');
});

afterAll(async () => {
  await harness.stop();
});

describe('PATCH /v1/users/:uid', () => {
  it('refuses a change to the caller’s own bundles, the admin bundle included', async () => {
    const res = await call('PATCH', `/v1/users/${uid('clerk@demo.test')}`, clerk, {
      bundleIds: ['cis-clerk', 'people', 'admin'],
    });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('You cannot change your own role bundles.');
  });

  it('refuses a bundle with scopes the caller does not hold', async () => {
    const res = await call('PATCH', `/v1/users/${uid('viewer@demo.test')}`, clerk, {
      bundleIds: ['viewer', 'cis-accountant'],
    });
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/^You cannot grant cis\.[a-z.]+: you do not hold it\.$/);
  });

  it('lets only an administrator give or take away the admin bundle or role', async () => {
    const give = await call('PATCH', `/v1/users/${uid('viewer@demo.test')}`, clerk, {
      bundleIds: ['viewer', 'admin'],
    });
    expect(give.status).toBe(403);
    expect(give.body.detail).toBe('Only an administrator can give or take away the admin role bundle.');
    const takeBundle = await call('PATCH', `/v1/users/${uid('admin@demo.test')}`, clerk, { bundleIds: [] });
    expect(takeBundle.status).toBe(403);
    expect(takeBundle.body.detail).toBe('Only an administrator can give or take away the admin role bundle.');
    const demote = await call('PATCH', `/v1/users/${uid('admin@demo.test')}`, clerk, { role: 'standard' });
    expect(demote.status).toBe(403);
    expect(demote.body.detail).toBe('Only an administrator can change an administrator’s role.');
  });

  it('allows what the caller holds, and an administrator everything but their own access', async () => {
    const held = await call('PATCH', `/v1/users/${uid('viewer@demo.test')}`, clerk, {
      bundleIds: ['viewer', 'cis-clerk'],
    });
    expect(held.status).toBe(200);
    const byAdmin = await call('PATCH', `/v1/users/${uid('viewer@demo.test')}`, admin, {
      bundleIds: ['viewer', 'cis-accountant'],
    });
    expect(byAdmin.status).toBe(200);
    expect(
      (await call('PATCH', `/v1/users/${uid('viewer@demo.test')}`, admin, { bundleIds: ['viewer'] })).status,
    ).toBe(200);
  });
});

describe('PUT /v1/role-bundles/:bundleId', () => {
  it('refuses a scope the caller does not hold, on a new or an existing bundle', async () => {
    const raised = await call('PUT', '/v1/role-bundles/people', clerk, {
      name: 'People',
      scopes: ['users.view', 'users.manage', 'roles.manage', 'cis.inv.write'],
    });
    expect(raised.status).toBe(403);
    expect(raised.body.detail).toBe('You cannot grant cis.inv.write: you do not hold it.');
    const created = await call('PUT', '/v1/role-bundles/payers', clerk, {
      name: 'Payers',
      scopes: ['cis.manage'],
    });
    expect(created.status).toBe(403);
    expect(created.body.detail).toBe('You cannot grant cis.manage: you do not hold it.');
  });

  it('refuses the admin bundle to anyone but an administrator', async () => {
    const res = await call('PUT', '/v1/role-bundles/admin', clerk, { name: 'admin', scopes: [] });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('Only an administrator can change the admin role bundle.');
  });

  it('allows scopes the caller holds', async () => {
    const res = await call('PUT', '/v1/role-bundles/readers', clerk, {
      name: 'Readers',
      scopes: ['cis.inv.read', 'users.view'],
    });
    expect(res.status).toBe(204);
  });
});

describe('PUT /v1/tenant/available-scopes', () => {
  it('lets the caller narrow the whitelist but widen it only with scopes they hold', async () => {
    const narrowed = ['cis.inv.read', 'users.view', 'users.manage', 'roles.manage'];
    expect((await call('PUT', '/v1/tenant/available-scopes', clerk, { scopes: narrowed })).status).toBe(204);
    const widened = await call('PUT', '/v1/tenant/available-scopes', clerk, {
      scopes: [...narrowed, 'cis.ret.submit'],
    });
    expect(widened.status).toBe(403);
    expect(widened.body.detail).toBe('You cannot grant cis.ret.submit: you do not hold it.');
    const lifted = await call('PUT', '/v1/tenant/available-scopes', clerk, { scopes: null });
    expect(lifted.status).toBe(403);
    expect(lifted.body.detail).toMatch(/^You cannot grant [a-z.]+: you do not hold it\.$/);
    // An administrator lifts it (the admin role carries every tenant scope, whatever the whitelist left in the token).
    expect((await call('PUT', '/v1/tenant/available-scopes', admin, { scopes: null })).status).toBe(204);
  });
});
