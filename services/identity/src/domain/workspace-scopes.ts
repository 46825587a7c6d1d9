// Identity's own scopes (workspace.md §6): the tenant's settings, roles and users, and the platform's system
// scopes, held only by super-admins and valid without a tenant. Strings verbatim.
import type { ModuleScopes } from '@workspace/rules';

export const workspaceScopes = {
  catalogue: [
    {
      scope: 'tenant.view_settings',
      module: 'tenant',
      kind: 'coarse',
      description: 'view organisation settings',
    },
    {
      scope: 'tenant.edit_settings',
      module: 'tenant',
      kind: 'coarse',
      description: 'change organisation settings, branding and footer',
    },
    { scope: 'roles.manage', module: 'roles', kind: 'coarse', description: 'manage roles and permissions' },
    { scope: 'users.view', module: 'users', kind: 'coarse', description: 'view users' },
    { scope: 'users.manage', module: 'users', kind: 'coarse', description: 'manage users' },
    {
      scope: 'users.scrub_pii',
      module: 'users',
      kind: 'coarse',
      description: "erase users' personal data",
    },
    // Issue 15: the tenant's auditor reads the whole audit trail (every module's entries; docs/audit.md). A module's
    // own audit scope (cis.audit.read, drive.audit.read) reads that module's entries only.
    {
      scope: 'audit.read',
      module: 'audit',
      kind: 'coarse',
      description: "read the organisation's audit trail",
    },

    { scope: '*', module: 'system', kind: 'global', description: 'do everything' },
    { scope: 'system.superadmin', module: 'system', kind: 'global', description: 'administer the platform' },
    { scope: 'system.tenants.create', module: 'system', kind: 'coarse', description: 'create organisations' },
  ],
  implications: {
    // manage > view.
    'tenant.edit_settings': ['tenant.view_settings'],
    'users.manage': ['users.view'],

    // System: the super-admin scope passes everything.
    'system.superadmin': ['*'],
  },
} as const satisfies ModuleScopes;
