import {
  CHECKLIST_SCOPES,
  checkRolePermissions,
  CIS_COARSE_SCOPES,
  CIS_FINE_SCOPES,
  CIS_ROLE_TEMPLATES,
  CIS_SCOPES,
  cisAbilities,
  PERMISSION_CACHE_TTL_MS,
  type CisAbilities,
} from '../../src/domain/index.js';

type Ability = keyof CisAbilities;

describe('scopes (spec §6)', () => {
  test('fine, coarse and manage scopes', () => {
    expect(CIS_FINE_SCOPES).toHaveLength(18);
    expect(CIS_COARSE_SCOPES).toEqual([
      'cis.read',
      'cis.write',
      'cis.approve',
      'cis.submit',
      'cis.export',
      'cis.import',
    ]);
    expect(CHECKLIST_SCOPES).toEqual([
      'cis.ret.submit',
      'cis.ret.compile',
      'cis.settings.read',
      'cis.settings.write',
      'cis.inv.read',
      'cis.inv.write',
      'cis.inv.approve',
      'cis.inv.pay',
      'cis.io.export',
      'cis.jobs.run',
      'cis.audit.read',
      'cis.manage',
    ]);
    for (const name of CHECKLIST_SCOPES) {
      expect(CIS_SCOPES).toContain(name);
    }
  });

  test('cache lifetimes: 5, 10 and 30 minutes', () => {
    expect(PERMISSION_CACHE_TTL_MS).toEqual({ standard: 300_000, admin: 600_000, system: 1_800_000 });
  });
});

// ability, fine scope, coarse scope that also grants it (null: fine scope or manage only)
const TABLE: [Ability, string, string | null][] = [
  ['canViewSettings', 'cis.settings.read', 'cis.read'],
  ['canManage', 'cis.settings.write', null],
  ['canUnmask', 'cis.pii.unmask', null],
  ['canReadSubcontractors', 'cis.sub.read', 'cis.read'],
  ['canReadInvoices', 'cis.inv.read', 'cis.read'],
  ['canReadAudit', 'cis.audit.read', 'cis.read'],
  ['canWriteSubcontractors', 'cis.sub.write', 'cis.write'],
  ['canVerify', 'cis.sub.verify', 'cis.write'],
  ['canWrite', 'cis.inv.write', 'cis.write'],
  ['canPay', 'cis.inv.pay', 'cis.write'],
  ['canIssueStatements', 'cis.stmt.issue', 'cis.write'],
  ['canCompile', 'cis.ret.compile', 'cis.write'],
  ['canApprove', 'cis.inv.approve', 'cis.approve'],
  ['canSubmit', 'cis.ret.submit', 'cis.submit'],
  ['canImport', 'cis.io.import', 'cis.import'],
  ['canExport', 'cis.io.export', 'cis.export'],
  ['canRunJobs', 'cis.jobs.run', null],
  ['canInvite', 'cis.portal.invite', null],
];

describe('cisAbilities (spec §6 table)', () => {
  test.each(TABLE)(
    '%s: granted by %s, by %p, by cis.manage and by *; not by nothing',
    (ability, fine, coarse) => {
      expect(cisAbilities([fine])[ability]).toBe(true);
      expect(cisAbilities(['cis.manage'])[ability]).toBe(true);
      expect(cisAbilities(['*'])[ability]).toBe(true);
      expect(cisAbilities([])[ability]).toBe(false);
      expect(cisAbilities(['notes.read', 'drive.manage'])[ability]).toBe(false);
      if (coarse) expect(cisAbilities([coarse])[ability]).toBe(true);
      // no other coarse scope grants it
      for (const other of CIS_COARSE_SCOPES.filter((s) => s !== coarse)) {
        expect(cisAbilities([other])[ability]).toBe(false);
      }
    },
  );

  test.each(TABLE)('%s: no other single fine scope grants it', (ability, fine) => {
    for (const other of CIS_FINE_SCOPES.filter((s) => s !== fine)) {
      expect(cisAbilities([other])[ability]).toBe(false);
    }
  });

  test.each([
    [[], false],
    [['cis.inv.read'], true],
    [['cis.read'], true],
    [['cis.manage'], true],
    [['*'], true],
    [['drive.read'], false],
  ])('canView with %p is %p', (scopes, expected) => {
    expect(cisAbilities(scopes).canView).toBe(expected);
  });

  test('a manage-only user passes every check', () => {
    expect(Object.values(cisAbilities(['cis.manage'])).every(Boolean)).toBe(true);
  });
});

describe('role templates (spec §6)', () => {
  test('cis-admin holds every fine scope and cis.manage', () => {
    expect(CIS_ROLE_TEMPLATES['cis-admin']).toEqual([...CIS_FINE_SCOPES, 'cis.manage']);
  });
  test('cis-accountant', () => {
    const a = cisAbilities(CIS_ROLE_TEMPLATES['cis-accountant']);
    expect(a).toMatchObject({
      canViewSettings: true,
      canManage: false,
      canReadSubcontractors: true,
      canWriteSubcontractors: false,
      canReadInvoices: true,
      canWrite: true,
      canApprove: true,
      canPay: false,
      canIssueStatements: true,
      canCompile: true,
      canSubmit: false,
      canReadAudit: true,
      canExport: true,
      canImport: false,
    });
  });
  test('cis-clerk reads only', () => {
    const a = cisAbilities(CIS_ROLE_TEMPLATES['cis-clerk']);
    const granted = Object.entries(a)
      .filter(([, v]) => v)
      .map(([k]) => k);
    expect(granted.sort()).toEqual([
      'canReadAudit',
      'canReadInvoices',
      'canReadSubcontractors',
      'canView',
      'canViewSettings',
    ]);
  });
});

describe('checkRolePermissions (spec §6 checklist)', () => {
  const admin = { id: 'admin', name: 'CIS admin', scopes: ['cis.manage'] };

  test.each<[string, string[], string[], string[]]>([
    ['submit without compile', ['cis.ret.submit'], ["Role 'R': cis.ret.submit requires cis.ret.compile"], []],
    ['submit with compile', ['cis.ret.submit', 'cis.ret.compile'], [], []],
    ['coarse submit with coarse write and read', ['cis.submit', 'cis.write', 'cis.read'], [], []],
    [
      'settings write without read',
      ['cis.settings.write'],
      ["Role 'R': cis.settings.write requires cis.settings.read"],
      [],
    ],
    ['settings write with read', ['cis.settings.write', 'cis.settings.read'], [], []],
    ['approve without read', ['cis.inv.approve'], ["Role 'R': cis.inv.approve requires cis.inv.read"], []],
    ['approve with coarse read', ['cis.inv.approve', 'cis.read'], [], []],
    [
      'export alone',
      ['cis.io.export'],
      [],
      ["Role 'R': cis.io.export without cis.inv.read and cis.ret.compile can export little"],
    ],
    [
      'export with read only',
      ['cis.io.export', 'cis.inv.read'],
      [],
      ["Role 'R': cis.io.export without cis.ret.compile can export little"],
    ],
    ['export with read and compile', ['cis.io.export', 'cis.inv.read', 'cis.ret.compile'], [], []],
    ['pay without read', ['cis.inv.pay'], [], ["Role 'R': cis.inv.pay without cis.inv.read"]],
    ['jobs without audit', ['cis.jobs.run'], [], ["Role 'R': cis.jobs.run without cis.audit.read"]],
    ['jobs with audit', ['cis.jobs.run', 'cis.audit.read'], [], []],
    [
      'write and approve together',
      ['cis.inv.read', 'cis.inv.write', 'cis.inv.approve'],
      [],
      ["Role 'R': can both create and approve invoices (separation of duties)"],
    ],
  ])('%s', (_name, scopes, errors, warnings) => {
    const result = checkRolePermissions([admin, { id: 'r1', name: 'R', scopes }]);
    expect(result.errors).toEqual(errors);
    expect(result.warnings).toEqual([
      "Role 'CIS admin': can both create and approve invoices (separation of duties)",
      ...warnings,
    ]);
  });

  test('no role with settings write or manage, none able to submit', () => {
    expect(checkRolePermissions([{ id: 'clerk', scopes: [...CIS_ROLE_TEMPLATES['cis-clerk']] }])).toEqual({
      errors: [],
      warnings: [
        'No role can edit CIS settings (cis.settings.write or cis.manage)',
        'No role can submit returns (cis.ret.submit, cis.submit or cis.manage)',
      ],
    });
    expect(checkRolePermissions([]).warnings).toHaveLength(2);
  });

  test('the bundle id names it when it has no name', () => {
    expect(checkRolePermissions([admin, { id: 'b-7', scopes: ['cis.inv.approve'] }]).errors).toEqual([
      "Role 'b-7': cis.inv.approve requires cis.inv.read",
    ]);
  });

  test('the templates together raise no errors', () => {
    const bundles = Object.entries(CIS_ROLE_TEMPLATES).map(([id, scopes]) => ({ id, scopes: [...scopes] }));
    expect(checkRolePermissions(bundles).errors).toEqual([]);
  });
});
