import { CHECKLIST_SCOPES, cisAbilityScopes, type CisAbility } from '@workspace/cis/domain';
import {
  allScopes,
  CALL_SCOPES,
  canStartCalls,
  computeEffectiveScopes,
  expandScopes,
  hasScope,
  impliedScopes,
  isKnownScope,
  isSystemScope,
  normalizeRole,
  permissionDeniedMessage,
  roleTemplateNames,
  roleTemplates,
  SCOPE_CACHE_TTL_MS,
  scopeCacheTtlMs,
  scopeCatalogue,
  type RoleTemplateName,
  type ScopeKind,
  type ScopeModule,
} from '../src/domain/index.js';

/** Effective scopes of a standard user holding one bundle with these scopes, no whitelist, with a tenant. */
function holding(...scopes: string[]): Set<string> {
  return new Set(
    computeEffectiveScopes({
      role: 'standard',
      superAdmin: false,
      bundleScopes: [scopes],
      availableScopes: null,
    }),
  );
}

/** Effective scopes of a standard user whose only bundle is the template. */
function templateEffective(name: RoleTemplateName): Set<string> {
  return holding(...roleTemplates[name]);
}

const sorted = (values: Iterable<string>): string[] => [...values].sort();

const cisScopes = scopeCatalogue.filter((entry) => entry.module === 'cis').map((entry) => entry.scope);
const cisAbilities = Object.keys(cisAbilityScopes) as CisAbility[];
const abilitiesOf = (effective: ReadonlySet<string>): CisAbility[] =>
  cisAbilities.filter((ability) => hasScope(effective, cisAbilityScopes[ability])).sort();

describe('scope catalogue', () => {
  const catalogueRows: { id: string; module: ScopeModule; kind: ScopeKind; scopes: string[] }[] = [
    {
      id: 'WS-310',
      module: 'schedule',
      kind: 'coarse',
      scopes: ['schedule.read', 'schedule.write', 'schedule.manage'],
    },
    {
      id: 'WS-298',
      module: 'schedule',
      kind: 'fine',
      scopes: [
        'schedule.view_own',
        'schedule.view_team',
        'schedule.edit_own',
        'schedule.edit_team',
        'schedule.manage_calendars',
        'schedule.view_all',
      ],
    },
    {
      id: 'WS-311',
      module: 'notes',
      kind: 'coarse',
      scopes: ['notes.view', 'notes.create', 'notes.edit', 'notes.delete'],
    },
    {
      id: 'WS-312',
      module: 'chat',
      kind: 'coarse',
      scopes: ['chat.messages.view', 'chat.messages.send', 'chat.groups.manage'],
    },
    { id: 'WS-313', module: 'docs', kind: 'coarse', scopes: ['docs.view', 'docs.edit', 'docs.manage'] },
    {
      id: 'WS-313',
      module: 'tenant',
      kind: 'coarse',
      scopes: ['tenant.view_settings', 'tenant.edit_settings'],
    },
    { id: 'WS-313', module: 'roles', kind: 'coarse', scopes: ['roles.manage'] },
    {
      id: 'WS-314',
      module: 'users',
      kind: 'coarse',
      scopes: ['users.view', 'users.manage', 'users.scrub_pii'],
    },
    { id: 'WS-314', module: 'system', kind: 'coarse', scopes: ['system.tenants.create'] },
    { id: 'WS-314', module: 'system', kind: 'global', scopes: ['system.superadmin'] },
    {
      id: 'CIS-318',
      module: 'cis',
      kind: 'fine',
      scopes: [
        'cis.settings.read',
        'cis.settings.write',
        'cis.pii.unmask',
        'cis.sub.read',
        'cis.sub.write',
        'cis.sub.verify',
        'cis.inv.read',
        'cis.inv.write',
        'cis.inv.approve',
        'cis.inv.pay',
        'cis.stmt.issue',
        'cis.ret.compile',
        'cis.ret.submit',
        'cis.audit.read',
        'cis.io.import',
        'cis.io.export',
        'cis.jobs.run',
        'cis.portal.invite',
      ],
    },
    {
      id: 'CIS-320',
      module: 'cis',
      kind: 'coarse',
      scopes: ['cis.read', 'cis.write', 'cis.approve', 'cis.submit', 'cis.export', 'cis.import'],
    },
    { id: 'CIS-317', module: 'cis', kind: 'global', scopes: ['cis.manage'] },
    {
      id: 'DRV-301',
      module: 'drive',
      kind: 'fine',
      scopes: [
        'drive.drives.create',
        'drive.drives.manage',
        'drive.drives.list',
        'drive.libraries.create',
        'drive.libraries.manage',
        'drive.view',
        'drive.folders.create',
        'drive.folders.manage',
        'drive.signatures.view',
        'drive.signatures.create',
        'drive.signatures.sign',
        'drive.signatures.manage',
      ],
    },
    {
      id: 'DRV-302',
      module: 'drive',
      kind: 'fine',
      scopes: [
        'drive.file.upload',
        'drive.file.read',
        'drive.file.rename',
        'drive.file.move',
        'drive.file.replace_version',
        'drive.file.soft_delete',
        'drive.file.restore',
        'drive.file.hard_delete',
        'drive.file.share',
      ],
    },
    {
      id: 'DRV-303',
      module: 'drive',
      kind: 'fine',
      scopes: [
        'drive.attachment.add',
        'drive.attachment.remove',
        'drive.exports.create',
        'drive.exports.template.manage',
        'drive.audit.read',
        'drive.pii.read',
        'drive.pii.write',
      ],
    },
    { id: 'DRV-303', module: 'backup', kind: 'fine', scopes: ['backup.view_status', 'backup.restore'] },
    { id: 'DRV-309', module: 'drive', kind: 'coarse', scopes: ['drive.read', 'drive.write', 'drive.manage'] },
    { id: 'DRV-309', module: 'backup', kind: 'coarse', scopes: ['backup.manage'] },
  ];

  for (const row of catalogueRows) {
    it(`${row.id}: the catalogue lists ${row.scopes.join(', ')} as ${row.kind} ${row.module} scopes`, () => {
      for (const scope of row.scopes) {
        expect(scopeCatalogue.find((entry) => entry.scope === scope)).toMatchObject({
          scope,
          module: row.module,
          kind: row.kind,
        });
      }
    });
  }

  it('CIS-318: the CIS fine scopes are exactly the eighteen the spec describes', () => {
    const fine = scopeCatalogue.filter((entry) => entry.module === 'cis' && entry.kind === 'fine');
    expect(fine).toHaveLength(18);
  });

  it('CIS-319: the role-bundle checklist names are catalogue scopes verbatim', () => {
    const names = [...CHECKLIST_SCOPES];
    expect(names.filter((name) => !isKnownScope(name))).toEqual([]);
  });

  it('DRV-309: the validator accepts drive.read/write/manage, backup.*, docs.*, system.superadmin and rejects unknown strings', () => {
    const valid = [
      'drive.read',
      'drive.write',
      'drive.manage',
      'backup.view_status',
      'backup.manage',
      'backup.restore',
      'docs.view',
      'docs.edit',
      'docs.manage',
      'system.superadmin',
    ];
    expect(valid.filter((scope) => !isKnownScope(scope))).toEqual([]);
    for (const invalid of [
      'drive.everything',
      'cis.invoices.create',
      'file:upload',
      'DRIVE.READ',
      '',
      'system',
    ])
      expect(isKnownScope(invalid)).toBe(false);
  });

  it('every scope string is listed once', () => {
    expect(new Set(allScopes).size).toBe(allScopes.length);
    expect(allScopes).toHaveLength(scopeCatalogue.length);
  });

  it('system scopes are exactly *, system.superadmin and system.tenants.create', () => {
    expect(scopeCatalogue.filter((entry) => entry.system).map((entry) => entry.scope)).toEqual([
      '*',
      'system.superadmin',
      'system.tenants.create',
    ]);
    expect(isSystemScope('*')).toBe(true);
    expect(isSystemScope('drive.admin')).toBe(false);
    expect(isSystemScope('not.a.scope')).toBe(false);
  });

  it('every implication names a catalogue scope, and no non-system scope implies a system scope', () => {
    for (const scope of allScopes) {
      expect(impliedScopes(scope).filter((implied) => !isKnownScope(implied))).toEqual([]);
      if (!isSystemScope(scope)) expect([...expandScopes([scope])].filter(isSystemScope)).toEqual([]);
    }
  });

  it('WS-166: named permissions cover drive, library, file, attachment, export, backup, audit and personal-data actions', () => {
    const areas: Record<string, RegExp> = {
      drive: /^drive\.drives\./,
      library: /^drive\.libraries\./,
      file: /^drive\.file\./,
      attachment: /^drive\.attachment\./,
      export: /^drive\.exports\./,
      backup: /^backup\./,
      audit: /\.audit\.read$/,
      'personal-data': /\.pii\./,
    };
    for (const [area, pattern] of Object.entries(areas)) {
      const named = scopeCatalogue.filter((entry) => pattern.test(entry.scope));
      expect({ area, count: named.length > 0 }).toEqual({ area, count: true });
    }
  });

  it('WS-167: each named permission has a human description (a lower-case action phrase)', () => {
    for (const entry of scopeCatalogue) {
      expect(entry.description.trim()).toBe(entry.description);
      expect(entry.description).toMatch(/^[a-z][^.]*[a-zA-Z]$/);
    }
  });

  it("WS-165, WS-424, CIS-438: the Access Restricted message reads 'You don't have permission to {action}'", () => {
    expect(permissionDeniedMessage('drive.file.upload')).toBe("You don't have permission to upload files");
    expect(permissionDeniedMessage('notes.edit')).toBe("You don't have permission to edit notes");
    expect(permissionDeniedMessage('backup.restore')).toBe("You don't have permission to restore backups");
    expect(permissionDeniedMessage('unknown.scope')).toBe("You don't have permission to perform this action");
  });
});

describe('role claim', () => {
  it('WS-296, WS-002, DRV-297: role comes from the token claim; no claim gives standard, admin stays admin', () => {
    expect(normalizeRole(undefined)).toBe('standard');
    expect(normalizeRole(null)).toBe('standard');
    expect(normalizeRole('standard')).toBe('standard');
    expect(normalizeRole('admin')).toBe('admin');
  });

  it('WS-297: role claims beyond admin and standard are handled as standard', () => {
    for (const claim of ['manager', 'viewer', 'cis-admin', 'ADMIN', 'Admin', '', 42, true, ['admin']])
      expect(normalizeRole(claim)).toBe('standard');
  });
});

describe('star scope, super-admin and tenants', () => {
  it('WS-319, DRV-299: a star scope grants all', () => {
    const star = new Set(['*']);
    for (const scope of [...allScopes, 'tasks.anything']) expect(hasScope(star, scope)).toBe(true);
    expect(sorted(expandScopes(['*']))).toEqual(sorted(allScopes));
  });

  it('WS-318, DRV-298, DRV-005: a super-admin claim passes every check, with no scopes at all', () => {
    const none = new Set<string>();
    for (const scope of [...allScopes, 'tasks.anything']) {
      expect(hasScope(none, scope, { superAdmin: true })).toBe(true);
      expect(hasScope(none, scope, { superAdmin: true, hasTenant: false })).toBe(true);
      expect(hasScope(none, scope)).toBe(false);
    }
  });

  it('WS-318: a super-admin gets * and every scope, whatever the bundles and the whitelist', () => {
    const effective = computeEffectiveScopes({
      role: 'standard',
      superAdmin: true,
      bundleScopes: [],
      availableScopes: new Set<string>(),
    });
    expect(effective).toEqual(sorted(allScopes));
    expect(effective).toContain('*');
    expect(effective).toContain('system.superadmin');
  });

  it('system.superadmin implies the star scope', () => {
    expect(expandScopes(['system.superadmin']).has('*')).toBe(true);
  });

  it('WS-315, DRV-300: non-system scopes need a tenant; system scopes do not', () => {
    const star = new Set(['*']);
    expect(hasScope(star, 'drive.file.read', { hasTenant: false })).toBe(false);
    expect(hasScope(star, 'system.tenants.create', { hasTenant: false })).toBe(true);
    expect(hasScope(new Set(['notes.view']), 'notes.view', { hasTenant: false })).toBe(false);
    expect(
      computeEffectiveScopes({
        role: 'admin',
        superAdmin: false,
        bundleScopes: [['notes.view']],
        availableScopes: null,
        hasTenant: false,
      }),
    ).toEqual([]);
    expect(
      computeEffectiveScopes({
        role: 'standard',
        superAdmin: true,
        bundleScopes: [],
        availableScopes: null,
        hasTenant: false,
      }),
    ).toEqual(['*', 'system.superadmin', 'system.tenants.create']);
  });

  it('system scopes in bundles are dropped without the super-admin claim', () => {
    const effective = computeEffectiveScopes({
      role: 'admin',
      superAdmin: false,
      bundleScopes: [['system.superadmin', 'system.tenants.create', '*']],
      availableScopes: null,
    });
    expect(effective.filter(isSystemScope)).toEqual([]);
    expect(effective).toEqual(sorted(roleTemplates.admin));
  });

  it('a tenant bundle holding * gets every non-system scope, like the admin template', () => {
    expect(sorted(holding('*'))).toEqual(sorted(roleTemplates.admin));
  });

  it('unknown strings in bundles are ignored', () => {
    expect(sorted(holding('tasks.anything', 'notes.view'))).toEqual(['notes.view']);
  });
});

describe('permission whitelist (available scopes)', () => {
  it('limits the effective scopes to the tenant whitelist, even for an admin', () => {
    const effective = computeEffectiveScopes({
      role: 'admin',
      superAdmin: false,
      bundleScopes: [],
      availableScopes: new Set(['notes.view', 'drive.file.read']),
    });
    expect(effective).toEqual(['drive.file.read', 'drive.read', 'notes.view']);
  });

  it('is closed under the implications: whitelisting cis.read makes the CIS read scopes available', () => {
    const effective = computeEffectiveScopes({
      role: 'standard',
      superAdmin: false,
      bundleScopes: [roleTemplates['cis-accountant']],
      availableScopes: new Set(['cis.read']),
    });
    expect(effective).toEqual(['cis.audit.read', 'cis.inv.read', 'cis.settings.read', 'cis.sub.read']);
  });

  it('cuts what the whitelist lacks even when a bundle scope implies it: cis.write under a cis.inv.write whitelist', () => {
    const effective = computeEffectiveScopes({
      role: 'standard',
      superAdmin: false,
      bundleScopes: [['cis.write']],
      availableScopes: new Set(['cis.inv.write']),
    });
    expect(effective).toEqual(['cis.inv.write']);
  });

  it('null means no limit; an empty whitelist leaves nothing', () => {
    const base = { role: 'admin' as const, superAdmin: false, bundleScopes: [] };
    expect(computeEffectiveScopes({ ...base, availableScopes: null })).toEqual(sorted(roleTemplates.admin));
    expect(computeEffectiveScopes({ ...base, availableScopes: new Set<string>() })).toEqual([]);
  });

  it('effective scopes are sorted, unique and already closed under the implications', () => {
    const whitelists = [
      null,
      new Set(['cis.read', 'drive.admin', 'notes.view']),
      new Set(['schedule.view_team']),
    ];
    for (const name of roleTemplateNames) {
      for (const availableScopes of whitelists) {
        const effective = computeEffectiveScopes({
          role: 'standard',
          superAdmin: false,
          bundleScopes: [roleTemplates[name], ['notes.edit']],
          availableScopes,
        });
        expect(effective).toEqual(sorted(new Set(effective)));
        expect(sorted(expandScopes(effective))).toEqual(effective);
      }
    }
  });
});

describe('role templates', () => {
  it('WS-322: templates admin, manager, editor, viewer, cis-admin, cis-accountant and cis-clerk exist', () => {
    expect([...roleTemplateNames].sort()).toEqual(
      ['admin', 'manager', 'editor', 'viewer', 'cis-admin', 'cis-accountant', 'cis-clerk'].sort(),
    );
  });

  it('WS-321: role template admin holds every scope but the system scopes', () => {
    expect(roleTemplates.admin.filter(isSystemScope)).toEqual([]);
    expect(sorted(roleTemplates.admin)).toEqual(sorted(allScopes.filter((scope) => !isSystemScope(scope))));
  });

  it('DRV-328: role admin is effectively every non-system scope and lacks system.superadmin', () => {
    const effective = computeEffectiveScopes({
      role: 'admin',
      superAdmin: false,
      bundleScopes: [],
      availableScopes: null,
    });
    expect(effective).toEqual(sorted(roleTemplates.admin));
    expect(effective).not.toContain('system.superadmin');
  });

  it('WS-323: role template viewer is read-only drive, own schedule, notes, docs and chat, with no write scope', () => {
    expect(sorted(templateEffective('viewer'))).toEqual([
      'chat.messages.view',
      'docs.view',
      'drive.drives.list',
      'drive.file.read',
      'drive.read',
      'drive.signatures.view',
      'drive.view',
      'notes.view',
      'schedule.read',
      'schedule.view_own',
    ]);
  });

  it('DRV-331: role template viewer is read-only on the drive (no upload, write, delete, share or folders)', () => {
    const viewer = templateEffective('viewer');
    const driveScopes = sorted([...viewer].filter((scope) => scope.startsWith('drive.')));
    expect(driveScopes).toEqual([
      'drive.drives.list',
      'drive.file.read',
      'drive.read',
      'drive.signatures.view',
      'drive.view',
    ]);
    for (const scope of [
      'drive.write',
      'drive.manage',
      'drive.file.upload',
      'drive.file.share',
      'drive.folders.create',
    ])
      expect(hasScope(viewer, scope)).toBe(false);
  });

  it('DRV-329: role template manager has drive view, write, delete, share and folders, not hard delete or admin', () => {
    const manager = templateEffective('manager');
    for (const scope of [
      'drive.view',
      'drive.read',
      'drive.write',
      'drive.file.upload',
      'drive.file.soft_delete',
      'drive.file.restore',
      'drive.file.share',
      'drive.folders.create',
      'drive.folders.manage',
    ])
      expect(hasScope(manager, scope)).toBe(true);
    for (const scope of ['drive.file.hard_delete', 'drive.manage_all', 'drive.admin', 'drive.pii.read'])
      expect(hasScope(manager, scope)).toBe(false);
  });

  it('DRV-330: role template editor has drive view, write, share and folder create, no delete or folder management', () => {
    const editor = templateEffective('editor');
    for (const scope of [
      'drive.view',
      'drive.read',
      'drive.write',
      'drive.file.upload',
      'drive.file.share',
      'drive.folders.create',
    ])
      expect(hasScope(editor, scope)).toBe(true);
    for (const scope of [
      'drive.file.soft_delete',
      'drive.file.hard_delete',
      'drive.folders.manage',
      'drive.manage_all',
    ])
      expect(hasScope(editor, scope)).toBe(false);
  });

  it('WS-326, WS-327: footer, branding, colour and logo settings (tenant.edit_settings) are held by the admin template only', () => {
    const holders = roleTemplateNames.filter((name) =>
      hasScope(templateEffective(name), 'tenant.edit_settings'),
    );
    expect(holders).toEqual(['admin']);
  });

  it('DRV-332: cis roles do not affect the drive (cis templates grant only CIS scopes)', () => {
    for (const name of ['cis-admin', 'cis-accountant', 'cis-clerk'] as const)
      expect([...templateEffective(name)].filter((scope) => !scope.startsWith('cis.'))).toEqual([]);
  });

  it('CIS-350: role template cis-admin holds all cis scopes', () => {
    expect(sorted(roleTemplates['cis-admin'])).toEqual(sorted(cisScopes));
    expect(abilitiesOf(templateEffective('cis-admin'))).toEqual([...cisAbilities].sort());
  });

  it('CIS-351: role template cis-accountant: settings read, subcontractor read, invoices read/write/approve, statement issue, return compile, audit read, export', () => {
    expect(sorted(roleTemplates['cis-accountant'])).toEqual([
      'cis.audit.read',
      'cis.inv.approve',
      'cis.inv.read',
      'cis.inv.write',
      'cis.io.export',
      'cis.ret.compile',
      'cis.settings.read',
      'cis.stmt.issue',
      'cis.sub.read',
    ]);
    expect(abilitiesOf(templateEffective('cis-accountant'))).toEqual(
      [
        'viewSettings',
        'viewSubcontractors',
        'viewInvoices',
        'createInvoices',
        'approveInvoices',
        'issueStatements',
        'compileReturns',
        'viewAudit',
        'exportData',
      ].sort(),
    );
  });

  it('CIS-352: role template cis-clerk: settings, subcontractor, invoice and audit read', () => {
    expect(sorted(roleTemplates['cis-clerk'])).toEqual([
      'cis.audit.read',
      'cis.inv.read',
      'cis.settings.read',
      'cis.sub.read',
    ]);
    expect(abilitiesOf(templateEffective('cis-clerk'))).toEqual(
      ['viewSettings', 'viewSubcontractors', 'viewInvoices', 'viewAudit'].sort(),
    );
  });
});

describe('CIS ability table (cis.md §6)', () => {
  const abilityRows: { id: string; ability: CisAbility; grantedBy: string[] }[] = [
    { id: 'CIS-321', ability: 'viewSettings', grantedBy: ['cis.settings.read', 'cis.read', 'cis.manage'] },
    { id: 'CIS-322', ability: 'editSettings', grantedBy: ['cis.settings.write', 'cis.manage'] },
    { id: 'CIS-323', ability: 'unmaskPii', grantedBy: ['cis.pii.unmask', 'cis.manage'] },
    { id: 'CIS-324', ability: 'viewSubcontractors', grantedBy: ['cis.sub.read', 'cis.read', 'cis.manage'] },
    { id: 'CIS-324', ability: 'viewInvoices', grantedBy: ['cis.inv.read', 'cis.read', 'cis.manage'] },
    { id: 'CIS-324', ability: 'viewAudit', grantedBy: ['cis.audit.read', 'cis.read', 'cis.manage'] },
    {
      id: 'CIS-325',
      ability: 'manageSubcontractors',
      grantedBy: ['cis.sub.write', 'cis.write', 'cis.manage'],
    },
    {
      id: 'CIS-325',
      ability: 'verifySubcontractors',
      grantedBy: ['cis.sub.verify', 'cis.write', 'cis.manage'],
    },
    { id: 'CIS-326', ability: 'createInvoices', grantedBy: ['cis.inv.write', 'cis.write', 'cis.manage'] },
    { id: 'CIS-326', ability: 'payInvoices', grantedBy: ['cis.inv.pay', 'cis.write', 'cis.manage'] },
    { id: 'CIS-327', ability: 'issueStatements', grantedBy: ['cis.stmt.issue', 'cis.write', 'cis.manage'] },
    { id: 'CIS-327', ability: 'compileReturns', grantedBy: ['cis.ret.compile', 'cis.write', 'cis.manage'] },
    {
      id: 'CIS-328',
      ability: 'approveInvoices',
      grantedBy: ['cis.inv.approve', 'cis.approve', 'cis.manage'],
    },
    { id: 'CIS-329', ability: 'submitReturns', grantedBy: ['cis.ret.submit', 'cis.submit', 'cis.manage'] },
    { id: 'CIS-330', ability: 'importData', grantedBy: ['cis.io.import', 'cis.import', 'cis.manage'] },
    { id: 'CIS-330', ability: 'exportData', grantedBy: ['cis.io.export', 'cis.export', 'cis.manage'] },
    { id: 'CIS-331', ability: 'runJobs', grantedBy: ['cis.jobs.run', 'cis.manage'] },
    { id: 'CIS-331', ability: 'portalInvite', grantedBy: ['cis.portal.invite', 'cis.manage'] },
  ];

  it('every ability of the table has a row', () => {
    expect(abilityRows.map((row) => row.ability).sort()).toEqual([...cisAbilities].sort());
  });

  for (const row of abilityRows) {
    it(`${row.id}: ${row.ability} is granted by ${row.grantedBy.join(', ')} and by no other single CIS scope`, () => {
      const scope = cisAbilityScopes[row.ability];
      const grantors = cisScopes.filter((held) => hasScope(holding(held), scope));
      expect(sorted(grantors)).toEqual(sorted(row.grantedBy));
      expect(hasScope(holding(), scope)).toBe(false);
    });
  }

  const coarseRows: { id: string; scope: string; abilities: CisAbility[] }[] = [
    {
      id: 'CIS-321, CIS-324',
      scope: 'cis.read',
      abilities: ['viewSettings', 'viewSubcontractors', 'viewInvoices', 'viewAudit'],
    },
    {
      id: 'CIS-325, CIS-326, CIS-327',
      scope: 'cis.write',
      abilities: [
        'manageSubcontractors',
        'verifySubcontractors',
        'createInvoices',
        'payInvoices',
        'issueStatements',
        'compileReturns',
      ],
    },
    { id: 'CIS-328', scope: 'cis.approve', abilities: ['approveInvoices'] },
    { id: 'CIS-329', scope: 'cis.submit', abilities: ['submitReturns'] },
    { id: 'CIS-330', scope: 'cis.export', abilities: ['exportData'] },
    { id: 'CIS-330', scope: 'cis.import', abilities: ['importData'] },
    { id: 'CIS-317', scope: 'cis.manage', abilities: [...cisAbilities] },
  ];

  for (const row of coarseRows) {
    it(`${row.id}: coarse ${row.scope} alone grants exactly ${row.abilities.length === cisAbilities.length ? 'every ability' : row.abilities.join(', ')}`, () => {
      expect(abilitiesOf(holding(row.scope))).toEqual([...row.abilities].sort());
    });
  }

  it('CIS-317: the global scope cis.manage grants every CIS scope', () => {
    expect(sorted(holding('cis.manage'))).toEqual(sorted(cisScopes));
  });

  it('CIS fine scopes imply nothing: settings write does not give settings read, approve does not give read', () => {
    for (const scope of cisScopes.filter(
      (held) => scopeCatalogue.find((e) => e.scope === held)?.kind === 'fine',
    ))
      expect(sorted(holding(scope))).toEqual([scope]);
  });
});

describe('workspace implications', () => {
  it('WS-320: notes.manage_all implies all notes scopes', () => {
    const notesScopes = allScopes.filter((scope) => scope.startsWith('notes.'));
    expect(sorted(holding('notes.manage_all'))).toEqual(sorted(notesScopes));
  });

  it('notes scopes below manage_all imply only notes.view', () => {
    expect(sorted(holding('notes.edit'))).toEqual(['notes.edit', 'notes.view']);
    expect(hasScope(holding('notes.edit', 'notes.create', 'notes.share'), 'notes.delete')).toBe(false);
  });

  it('WS-316: schedule view own, view team and view all each map to schedule.read and not to schedule.write', () => {
    for (const scope of ['schedule.view_own', 'schedule.view_team', 'schedule.view_all']) {
      expect(hasScope(holding(scope), 'schedule.read')).toBe(true);
      expect(hasScope(holding(scope), 'schedule.write')).toBe(false);
    }
  });

  it('WS-317: schedule edit own, edit team and manage calendars each map to schedule.write', () => {
    for (const scope of ['schedule.edit_own', 'schedule.edit_team', 'schedule.manage_calendars'])
      expect(hasScope(holding(scope), 'schedule.write')).toBe(true);
  });

  it('WS-299: view own or view team grants viewing the schedule; nothing else held, no viewing', () => {
    expect(hasScope(holding('schedule.view_own'), 'schedule.read')).toBe(true);
    expect(hasScope(holding('schedule.view_team'), 'schedule.read')).toBe(true);
    expect(hasScope(holding('notes.view'), 'schedule.read')).toBe(false);
  });

  it('WS-300: edit own or edit team grants adding events', () => {
    expect(hasScope(holding('schedule.edit_own'), 'schedule.write')).toBe(true);
    expect(hasScope(holding('schedule.edit_team'), 'schedule.write')).toBe(true);
    expect(hasScope(holding('schedule.view_team'), 'schedule.write')).toBe(false);
  });

  it('WS-301: manage calendars or view all calendars reveals all calendars (schedule.view_all); nothing narrower does', () => {
    expect(hasScope(holding('schedule.manage_calendars'), 'schedule.view_all')).toBe(true);
    expect(hasScope(holding('schedule.view_all'), 'schedule.view_all')).toBe(true);
    for (const scope of ['schedule.read', 'schedule.write', 'schedule.view_team', 'schedule.edit_team'])
      expect(hasScope(holding(scope), 'schedule.view_all')).toBe(false);
  });

  it('coarse schedule.read alone is own viewing; schedule.write own editing; schedule.manage everything', () => {
    expect(sorted(holding('schedule.read'))).toEqual(['schedule.read', 'schedule.view_own']);
    expect(sorted(holding('schedule.write'))).toEqual([
      'schedule.edit_own',
      'schedule.read',
      'schedule.view_own',
      'schedule.write',
    ]);
    expect(sorted(holding('schedule.manage'))).toEqual(
      sorted(allScopes.filter((s) => s.startsWith('schedule.'))),
    );
  });
});

describe('drive implications', () => {
  it('DRV-304: manage-all implies delete, restore, share, library and folder management', () => {
    const manageAll = holding('drive.manage_all');
    for (const scope of [
      'drive.file.soft_delete',
      'drive.file.hard_delete',
      'drive.file.restore',
      'drive.file.share',
      'drive.share',
      'drive.libraries.create',
      'drive.libraries.manage',
      'drive.folders.create',
      'drive.folders.manage',
    ])
      expect(hasScope(manageAll, scope)).toBe(true);
    for (const scope of ['drive.file.upload', 'drive.admin', 'drive.pii.read'])
      expect(hasScope(manageAll, scope)).toBe(false);
  });

  it('DRV-305: drive.admin implies every drive and export scope except personal data', () => {
    const admin = holding('drive.admin');
    const driveScopes = allScopes.filter((scope) => scope.startsWith('drive.'));
    expect(driveScopes.filter((scope) => !admin.has(scope))).toEqual(['drive.pii.read', 'drive.pii.write']);
    expect([...admin].filter((scope) => !scope.startsWith('drive.'))).toEqual([]);
  });

  it('DRV-306: coarse drive.read comes from file read', () => {
    expect(sorted(holding('drive.file.read'))).toEqual(['drive.file.read', 'drive.read']);
  });

  it('DRV-307: upload, rename, move, replace_version, soft_delete, restore, attachment add/remove/promote and exports.create each give drive.write', () => {
    const sources = [
      'drive.file.upload',
      'drive.file.rename',
      'drive.file.move',
      'drive.file.replace_version',
      'drive.file.soft_delete',
      'drive.file.restore',
      'drive.attachment.add',
      'drive.attachment.remove',
      'drive.attachment.promote',
      'drive.exports.create',
    ];
    expect(sources.filter((scope) => !hasScope(holding(scope), 'drive.write'))).toEqual([]);
  });

  it('DRV-308: hard_delete, file.share, drive.share, manage_all, admin, exports share/revoke/view_audit/template.manage and attachment.resolve_access each give drive.manage', () => {
    const sources = [
      'drive.file.hard_delete',
      'drive.file.share',
      'drive.share',
      'drive.manage_all',
      'drive.admin',
      'drive.exports.share',
      'drive.exports.revoke',
      'drive.exports.view_audit',
      'drive.exports.template.manage',
      'drive.attachment.resolve_access',
    ];
    expect(sources.filter((scope) => !hasScope(holding(scope), 'drive.manage'))).toEqual([]);
  });

  it('the drive coarse mapping is one way: drive.read, drive.write and drive.manage grant no fine scope', () => {
    for (const scope of ['drive.read', 'drive.write', 'drive.manage'])
      expect(sorted(holding(scope))).toEqual([scope]);
  });
});

describe('session scope cache', () => {
  it('WS-460, CIS-354, DRV-339, DRV-497: 5 min standard (300000 ms), 10 min admin (600000 ms), 30 min with system scopes (1800000 ms)', () => {
    expect(SCOPE_CACHE_TTL_MS).toEqual({ standard: 300_000, admin: 600_000, system: 1_800_000 });
    expect(scopeCacheTtlMs({ role: 'standard', scopes: ['notes.view'] })).toBe(300_000);
    expect(scopeCacheTtlMs({ role: 'admin', scopes: roleTemplates.admin })).toBe(600_000);
    const superAdmin = computeEffectiveScopes({
      role: 'standard',
      superAdmin: true,
      bundleScopes: [],
      availableScopes: null,
    });
    expect(scopeCacheTtlMs({ role: 'standard', scopes: superAdmin })).toBe(1_800_000);
    expect(scopeCacheTtlMs({ role: 'admin', scopes: ['system.tenants.create'] })).toBe(1_800_000);
  });

  it('WS-460, CIS-354, DRV-339: the TTL class follows the role claim (other claims are standard) and system scopes', () => {
    expect(scopeCacheTtlMs({ role: 'cis-admin', scopes: roleTemplates['cis-admin'] })).toBe(300_000);
    expect(scopeCacheTtlMs({ role: 'admin', scopes: [] })).toBe(600_000);
    expect(scopeCacheTtlMs({ role: 'standard', scopes: ['*'] })).toBe(1_800_000);
  });
});

describe('calls gate', () => {
  it("WS-136, WS-324, WS-425, DRV-161, DRV-325: without the calls.voip entitlement the button reads 'Upgrade to enable Calls', whatever the scopes", () => {
    expect(canStartCalls([], CALL_SCOPES)).toEqual({ allowed: false, reason: 'Upgrade to enable Calls' });
    expect(canStartCalls(['storage.pro'], ['*'])).toEqual({
      allowed: false,
      reason: 'Upgrade to enable Calls',
    });
  });

  it("WS-137, WS-425, DRV-162: with the entitlement but no call scope the button reads 'You don't have permission to start calls'", () => {
    expect(canStartCalls(['calls.voip'], ['chat.messages.send', 'chat.messages.view'])).toEqual({
      allowed: false,
      reason: "You don't have permission to start calls",
    });
  });

  it('WS-325, DRV-326: calls need one of calls.room.create, chat.calls.voice or chat.calls.video, each alone enough', () => {
    expect([...CALL_SCOPES].sort()).toEqual(['calls.room.create', 'chat.calls.video', 'chat.calls.voice']);
    for (const scope of CALL_SCOPES)
      expect(canStartCalls(['calls.voip'], holding(scope))).toEqual({ allowed: true, reason: null });
  });

  it('the star scope and the super-admin claim pass the scope half of the gate, not the entitlement', () => {
    expect(canStartCalls(['calls.voip'], ['*']).allowed).toBe(true);
    expect(canStartCalls(['calls.voip'], [], { superAdmin: true }).allowed).toBe(true);
    expect(canStartCalls([], [], { superAdmin: true }).allowed).toBe(false);
  });
});
