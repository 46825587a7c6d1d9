import { readFileSync } from 'node:fs';
import {
  CHECKLIST_SCOPES,
  checkRolePermissions,
  CIS_COARSE_SCOPES,
  CIS_FINE_SCOPES,
  CIS_ROLE_TEMPLATES,
  CIS_SCOPES,
  cisAbilities,
  cisScopeName,
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
    [
      'submit without compile',
      ['cis.ret.submit'],
      ["Role 'R' can submit CIS returns but not compile CIS returns"],
      [],
    ],
    ['submit with compile', ['cis.ret.submit', 'cis.ret.compile'], [], []],
    ['coarse submit with coarse write and read', ['cis.submit', 'cis.write', 'cis.read'], [], []],
    [
      'settings write without read',
      ['cis.settings.write'],
      ["Role 'R' can change CIS settings but not view CIS settings"],
      [],
    ],
    ['settings write with read', ['cis.settings.write', 'cis.settings.read'], [], []],
    [
      'approve without read',
      ['cis.inv.approve'],
      ["Role 'R' can approve CIS invoices but not view CIS invoices"],
      [],
    ],
    ['approve with coarse read', ['cis.inv.approve', 'cis.read'], [], []],
    [
      'export alone',
      ['cis.io.export'],
      [],
      [
        "Role 'R' can export CIS data but not view CIS invoices or compile CIS returns, so it can export little",
      ],
    ],
    [
      'export with read only',
      ['cis.io.export', 'cis.inv.read'],
      [],
      ["Role 'R' can export CIS data but not compile CIS returns, so it can export little"],
    ],
    ['export with read and compile', ['cis.io.export', 'cis.inv.read', 'cis.ret.compile'], [], []],
    [
      'pay without read',
      ['cis.inv.pay'],
      [],
      ["Role 'R' can mark CIS invoices as paid but not view CIS invoices"],
    ],
    [
      'jobs without audit',
      ['cis.jobs.run'],
      [],
      ["Role 'R' can run CIS background jobs but not view the CIS audit trail"],
    ],
    ['jobs with audit', ['cis.jobs.run', 'cis.audit.read'], [], []],
    [
      'write and approve together',
      ['cis.inv.read', 'cis.inv.write', 'cis.inv.approve'],
      [],
      ["Role 'R' can both create and approve invoices (separation of duties)"],
    ],
  ])('%s', (_name, scopes, errors, warnings) => {
    const result = checkRolePermissions([admin, { id: 'r1', name: 'R', scopes }]);
    expect(result.errors).toEqual(errors);
    // The administrator's bundle (cis.manage) holds everything by design: no separation-of-duties warning.
    expect(result.warnings).toEqual(warnings);
  });

  test('no role with settings write or manage, none able to submit', () => {
    expect(checkRolePermissions([{ id: 'clerk', scopes: [...CIS_ROLE_TEMPLATES['cis-clerk']] }])).toEqual({
      errors: [],
      warnings: ['No role can change CIS settings', 'No role can submit CIS returns'],
    });
    expect(checkRolePermissions([]).warnings).toHaveLength(2);
  });

  test('the bundle id names it when it has no name', () => {
    expect(checkRolePermissions([admin, { id: 'b-7', scopes: ['cis.inv.approve'] }]).errors).toEqual([
      "Role 'b-7' can approve CIS invoices but not view CIS invoices",
    ]);
  });

  test('the templates together raise no errors', () => {
    const bundles = Object.entries(CIS_ROLE_TEMPLATES).map(([id, scopes]) => ({ id, scopes: [...scopes] }));
    expect(checkRolePermissions(bundles).errors).toEqual([]);
  });

  test('the demo tenant (the templates, an administrator holding every scope, the seed’s own bundle) opens without errors, in words without scope strings', () => {
    const seed = JSON.parse(
      readFileSync(new URL('../../../../deploy/local/seed/demo.json', import.meta.url), 'utf8'),
    ) as { bundles: { id: string; name: string; scopes: string[] }[] };
    const bundles = [
      { id: 'admin', name: 'admin', scopes: [...CIS_SCOPES] },
      { id: 'manager', name: 'manager', scopes: [] },
      ...Object.entries(CIS_ROLE_TEMPLATES).map(([id, scopes]) => ({ id, name: id, scopes: [...scopes] })),
      ...seed.bundles,
    ];
    const result = checkRolePermissions(bundles);
    expect(result).toEqual({
      errors: [],
      warnings: ["Role 'cis-accountant' can both create and approve invoices (separation of duties)"],
    });
    const broken = checkRolePermissions([
      {
        id: 'x',
        scopes: [
          'cis.ret.submit',
          'cis.settings.write',
          'cis.inv.approve',
          'cis.io.export',
          'cis.inv.pay',
          'cis.jobs.run',
        ],
      },
    ]);
    for (const message of [...broken.errors, ...broken.warnings]) expect(message).not.toMatch(/cis\.[a-z]/);
  });

  test('a checklist scope reads as what it lets a role do', () => {
    expect(CHECKLIST_SCOPES.map(cisScopeName)).toEqual([
      'Submit CIS returns',
      'Compile CIS returns',
      'View CIS settings',
      'Change CIS settings',
      'View CIS invoices',
      'Create or edit CIS invoices',
      'Approve CIS invoices',
      'Mark CIS invoices as paid',
      'Export CIS data',
      'Run CIS background jobs',
      'View the CIS audit trail',
      'Manage everything in CIS',
    ]);
    expect(cisScopeName('drive.view')).toBe('drive.view');
  });
});
