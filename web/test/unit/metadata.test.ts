// The tenant data the staff shell reads from the session (GET /api/auth/session → tenant): which modules its
// navigation lists and each module's settings. The web has no reader of GET /api/metadata (the sign-in page is the
// IdP's); its fallbacks (WS-426) are the bff's and are tested in bff/test/workspace-endpoints.int.test.ts.
import type { TenantModule } from '@workspace/identity/contract';
import {
  enabledModules,
  landingRoute,
  moduleCatalogue,
  moduleConfig,
  shellModules,
} from '../../src/app/modules';

const demoModules: TenantModule[] = [
  { id: 'cis', enabled: true, config: {} },
  { id: 'drive', enabled: true, config: {} },
  { id: 'schedule', enabled: true, config: { defaultView: 'week' } },
  { id: 'notes', enabled: true, config: {} },
  { id: 'chat', enabled: false, config: { groups: false } },
  { id: 'calls', enabled: false, config: {} },
  { id: 'tasks', enabled: false, config: {} },
];

describe('the tenant’s modules in the shell (WS-006, WS-216)', () => {
  it('WS-216: the navigation lists the enabled modules in catalogue order and leaves disabled ones out', () => {
    expect(enabledModules(demoModules).map((entry) => entry.label)).toEqual([
      'Schedule',
      'Notes',
      'Drive',
      'CIS',
    ]);
    const withChat = demoModules.map((module) =>
      module.id === 'chat' ? { ...module, enabled: true } : module,
    );
    expect(enabledModules(withChat).map((entry) => entry.id)).toEqual([
      'schedule',
      'notes',
      'chat',
      'drive',
      'cis',
    ]);
  });

  it('WS-216: a module id the shell does not know is not listed, enabled or not', () => {
    expect(
      enabledModules([{ id: 'payroll', enabled: true }, ...demoModules]).map((entry) => entry.id),
    ).toEqual(['schedule', 'notes', 'drive', 'cis']);
    expect(enabledModules(demoModules.map((module) => ({ ...module, enabled: false })))).toEqual([]);
  });

  it('WS-006, WS-216: a module’s config is read over the catalogue’s defaults', () => {
    const schedule = moduleCatalogue.find((entry) => entry.id === 'schedule');
    const chat = moduleCatalogue.find((entry) => entry.id === 'chat');
    if (!schedule || !chat) throw new Error('catalogue entries missing');
    expect(moduleConfig(schedule, demoModules[2]?.config)).toEqual({
      defaultView: 'week',
      weekStartsOn: 'monday',
      enableWorkingHours: false,
      workingHoursStart: 9,
      workingHoursEnd: 17,
    });
    expect(moduleConfig(chat, demoModules[4]?.config)).toEqual({ groups: false });
    expect(moduleConfig(chat, undefined)).toEqual({ groups: true });
  });
});

describe('the modules the shell offers (issue 13: only modules with screens in this version)', () => {
  const registered = new Set(['cis']);

  it('lists only enabled modules whose screens are registered, and opens on the first of them', () => {
    const offered = shellModules(demoModules, registered);
    expect(offered.map((entry) => entry.label)).toEqual(['CIS']);
    expect(landingRoute(offered)).toBe('/cis');
  });

  it('a module appears by registering its screens, in catalogue order, and is the landing page when first', () => {
    const offered = shellModules(demoModules, new Set(['cis', 'schedule']));
    expect(offered.map((entry) => entry.id)).toEqual(['schedule', 'cis']);
    expect(landingRoute(offered)).toBe('/schedule');
  });

  it('falls back to the Welcome page when no module the tenant enabled has screens (WS-034)', () => {
    const withoutCis = demoModules.map((module) =>
      module.id === 'cis' ? { ...module, enabled: false } : module,
    );
    expect(shellModules(withoutCis, registered)).toEqual([]);
    expect(landingRoute(shellModules(withoutCis, registered))).toBe('/welcome');
    expect(shellModules([{ id: 'payroll', enabled: true }], new Set(['payroll']))).toEqual([]);
  });
});
