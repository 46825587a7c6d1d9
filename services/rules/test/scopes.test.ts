import {
  assembleScopes,
  callsScopes,
  canStartCalls,
  chatScopes,
  closeScopes,
  docsScopes,
  normalizeRole,
  notesScopes,
  passesScopeCheck,
  scheduleScopes,
  type ModuleScopes,
} from '../src/index.js';

const platform = {
  catalogue: [
    { scope: '*', module: 'system', kind: 'global', description: 'do everything' },
    { scope: 'system.superadmin', module: 'system', kind: 'global', description: 'administer the platform' },
  ],
  implications: { 'system.superadmin': ['*'] },
} as const satisfies ModuleScopes;

const books = {
  catalogue: [
    { scope: 'books.read', module: 'books', kind: 'coarse', description: 'read books' },
    { scope: 'books.page.turn', module: 'books', kind: 'fine', description: 'turn pages' },
    { scope: 'books.manage', module: 'books', kind: 'global', description: 'manage books' },
  ],
  implications: { 'books.page.turn': ['books.read'], 'books.manage': ['books.read', 'books.page.turn'] },
  roleTemplates: { reader: ['books.page.turn'] },
} as const satisfies ModuleScopes;

describe('assembleScopes', () => {
  const model = assembleScopes([platform, books]);

  test('the catalogue is the modules’ in the order given, system scopes marked', () => {
    expect(model.allScopes).toEqual([
      '*',
      'system.superadmin',
      'books.read',
      'books.page.turn',
      'books.manage',
    ]);
    expect(model.tenantScopes).toEqual(['books.read', 'books.page.turn', 'books.manage']);
    expect(model.scopeEntry('*')).toMatchObject({ module: 'system', kind: 'global', system: true });
    expect(model.scopeEntry('books.read')).toMatchObject({ module: 'books', kind: 'coarse', system: false });
    expect(model.isKnownScope('books.burn')).toBe(false);
    expect(model.isSystemScope('books.burn')).toBe(false);
    expect(model.moduleRoleTemplates).toEqual({ reader: ['books.page.turn'] });
  });

  test('refuses a scope two modules declare', () => {
    expect(() => assembleScopes([books, books])).toThrow('Scope books.read is declared twice');
  });

  test('expansion: the implications transitively, * everything, unknown strings kept and implying nothing', () => {
    expect([...model.expandScopes(['books.page.turn'])].sort()).toEqual(['books.page.turn', 'books.read']);
    expect([...model.expandScopes(['system.superadmin'])].sort()).toEqual([...model.allScopes].sort());
    expect([...model.expandScopes(['books.burn'])]).toEqual(['books.burn']);
  });

  test('effective scopes: bundles expanded, admin given every tenant scope, whitelist expanded, system dropped', () => {
    const base = { role: 'standard', superAdmin: false, availableScopes: null } as const;
    expect(
      model.computeEffectiveScopes({ ...base, bundleScopes: [['books.page.turn', 'nope', '*']] }),
    ).toEqual(['books.manage', 'books.page.turn', 'books.read']);
    expect(model.computeEffectiveScopes({ ...base, role: 'admin', bundleScopes: [] })).toEqual(
      [...model.tenantScopes].sort(),
    );
    expect(
      model.computeEffectiveScopes({
        ...base,
        bundleScopes: [['books.manage']],
        availableScopes: new Set(['books.page.turn']),
      }),
    ).toEqual(['books.page.turn', 'books.read']);
    expect(
      model.computeEffectiveScopes({ ...base, bundleScopes: [['books.read']], hasTenant: false }),
    ).toEqual([]);
    expect(
      model.computeEffectiveScopes({ ...base, superAdmin: true, bundleScopes: [], hasTenant: false }),
    ).toEqual(['*', 'system.superadmin']);
  });

  test('checks, cache durations and the Access Restricted text', () => {
    expect(model.hasScope(new Set(['books.read']), 'books.read')).toBe(true);
    expect(model.hasScope(new Set(['books.read']), 'books.read', { hasTenant: false })).toBe(false);
    expect(model.hasScope(new Set(['*']), 'system.superadmin', { hasTenant: false })).toBe(true);
    expect(model.hasScope(new Set(), 'books.read', { superAdmin: true, hasTenant: false })).toBe(true);
    expect(model.scopeCacheTtlMs({ role: 'standard', scopes: ['books.read'] })).toBe(300_000);
    expect(model.scopeCacheTtlMs({ role: 'admin', scopes: ['books.read'] })).toBe(600_000);
    expect(model.scopeCacheTtlMs({ role: 'standard', scopes: ['system.superadmin'] })).toBe(1_800_000);
    expect(model.permissionDeniedMessage('books.page.turn')).toBe("You don't have permission to turn pages");
    expect(model.permissionDeniedMessage('books.burn')).toBe(
      "You don't have permission to perform this action",
    );
  });
});

describe('the modules without a service yet', () => {
  const modules = [scheduleScopes, notesScopes, chatScopes, callsScopes, docsScopes];
  const model = assembleScopes(modules);

  test('every implication names scopes of these modules and each scope’s module is its first segment', () => {
    for (const [scope, implied] of Object.entries(model.implications)) {
      expect(model.isKnownScope(scope)).toBe(true);
      expect(implied.filter((name) => !model.isKnownScope(name))).toEqual([]);
    }
    for (const entry of model.catalogue) expect(entry.scope.split('.')[0]).toBe(entry.module);
  });

  test('a coarse scope alone grants the narrowest fine scope; manage the whole module', () => {
    expect([...model.expandScopes(['schedule.read'])].sort()).toEqual(['schedule.read', 'schedule.view_own']);
    expect([...model.expandScopes(['notes.manage_all'])].sort()).toEqual(
      notesScopes.catalogue.map((entry) => entry.scope).sort(),
    );
  });
});

describe('calls gate', () => {
  test('entitlement first, then any call scope', () => {
    expect(canStartCalls([], ['calls.room.create'])).toEqual({
      allowed: false,
      reason: 'Upgrade to enable Calls',
    });
    expect(canStartCalls(['calls.voip'], ['notes.view'])).toEqual({
      allowed: false,
      reason: "You don't have permission to start calls",
    });
    expect(canStartCalls(['calls.voip'], ['chat.calls.video'])).toEqual({ allowed: true, reason: null });
    expect(canStartCalls(['calls.voip'], ['chat.calls.video'], { hasTenant: false }).allowed).toBe(false);
    expect(canStartCalls(['calls.voip'], [], { superAdmin: true }).allowed).toBe(true);
  });
});

test('closeScopes, passesScopeCheck and normalizeRole', () => {
  expect(
    [...closeScopes(['a'], (scope) => (scope === 'a' ? ['b'] : scope === 'b' ? ['a', 'c'] : []))].sort(),
  ).toEqual(['a', 'b', 'c']);
  expect(passesScopeCheck(new Set(['x']), 'x', false)).toBe(true);
  expect(passesScopeCheck(new Set(['x']), 'x', false, { hasTenant: false })).toBe(false);
  expect(passesScopeCheck(new Set(['*']), 'y', true, { hasTenant: false })).toBe(true);
  expect(normalizeRole('admin')).toBe('admin');
  expect(normalizeRole('Admin')).toBe('standard');
  expect(normalizeRole(undefined)).toBe('standard');
});
