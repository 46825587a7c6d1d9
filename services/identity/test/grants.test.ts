import { firstUnheldGrant, roleBundleRefusal, userAccessRefusal, type Grantor } from '../src/domain/index.js';

const clerk: Grantor = {
  userId: 'u-clerk',
  role: 'standard',
  scopes: new Set(['cis.inv.read', 'users.manage']),
};
const admin: Grantor = { userId: 'u-admin', role: 'admin', scopes: new Set(['users.manage']) };
const bundles: Record<string, string[]> = {
  admin: ['users.manage', 'roles.manage'],
  'cis-clerk': ['cis.inv.read'],
  'cis-payments': ['cis.ret.submit'],
};
const bundleScopes = (id: string) => bundles[id] ?? [];
const user = { uid: 'u-other', role: 'standard', bundleIds: ['cis-clerk'] };

describe('firstUnheldGrant', () => {
  it('names the first scope added that the caller does not hold', () => {
    expect(firstUnheldGrant(clerk, ['cis.inv.read', 'cis.ret.submit'], [])).toBe('cis.ret.submit');
    expect(firstUnheldGrant(clerk, ['cis.inv.read'], [])).toBeUndefined();
  });

  it('lets a caller keep what is already there, and holds everything with *', () => {
    expect(firstUnheldGrant(clerk, ['cis.ret.submit'], ['cis.ret.submit'])).toBeUndefined();
    expect(
      firstUnheldGrant({ role: 'standard', scopes: new Set(['*']) }, ['system.superadmin'], []),
    ).toBeUndefined();
  });

  it('gives an administrator every tenant scope, but no system scope', () => {
    expect(firstUnheldGrant(admin, ['cis.ret.submit', 'drive.view'], [])).toBeUndefined();
    expect(firstUnheldGrant(admin, ['system.superadmin'], [])).toBe('system.superadmin');
  });
});

describe('userAccessRefusal', () => {
  const refusal = (grantor: Grantor, target: typeof user, changes: { role?: string; bundleIds?: string[] }) =>
    userAccessRefusal({ grantor, target, changes, bundleScopes });

  it('refuses changes to the caller’s own role or bundles, even an administrator’s', () => {
    expect(refusal(admin, { ...user, uid: admin.userId }, { role: 'standard' })).toBe(
      'You cannot change your own role.',
    );
    expect(refusal(clerk, { ...user, uid: clerk.userId }, { bundleIds: ['cis-clerk', 'admin'] })).toBe(
      'You cannot change your own role bundles.',
    );
  });

  it('keeps administration to administrators', () => {
    expect(refusal(clerk, user, { role: 'admin' })).toBe(
      'Only an administrator can make someone an administrator.',
    );
    expect(refusal(clerk, { ...user, role: 'admin' }, { role: 'standard' })).toBe(
      'Only an administrator can change an administrator’s role.',
    );
    expect(refusal(clerk, user, { bundleIds: ['cis-clerk', 'admin'] })).toBe(
      'Only an administrator can give or take away the admin role bundle.',
    );
    expect(refusal(clerk, { ...user, bundleIds: ['admin'] }, { bundleIds: [] })).toBe(
      'Only an administrator can give or take away the admin role bundle.',
    );
    expect(refusal(admin, user, { role: 'admin', bundleIds: ['admin'] })).toBeUndefined();
  });

  it('refuses a new bundle with a scope the caller does not hold, not one the user already had', () => {
    expect(refusal(clerk, user, { bundleIds: ['cis-clerk', 'cis-payments'] })).toBe(
      'You cannot grant cis.ret.submit: you do not hold it.',
    );
    expect(
      refusal(clerk, { ...user, bundleIds: ['cis-payments'] }, { bundleIds: ['cis-payments'] }),
    ).toBeUndefined();
    expect(refusal(clerk, user, { bundleIds: [] })).toBeUndefined();
  });
});

describe('roleBundleRefusal', () => {
  it('refuses raising a bundle beyond the caller, and the admin bundle to non-administrators', () => {
    expect(
      roleBundleRefusal({ grantor: clerk, bundleId: 'x', requested: ['cis.ret.submit'], current: [] }),
    ).toBe('You cannot grant cis.ret.submit: you do not hold it.');
    expect(
      roleBundleRefusal({ grantor: clerk, bundleId: 'admin', requested: [], current: ['users.manage'] }),
    ).toBe('Only an administrator can change the admin role bundle.');
    expect(
      roleBundleRefusal({
        grantor: clerk,
        bundleId: 'x',
        requested: ['cis.inv.read'],
        current: ['cis.ret.submit'],
      }),
    ).toBeUndefined();
  });
});
