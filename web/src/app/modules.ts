/** The icons the catalogue names; the shell maps each to an antd icon (web/src/features/shell/moduleIcons.tsx). */
export type ModuleIcon = 'calendar' | 'notes' | 'chat' | 'calls' | 'tasks' | 'drive' | 'cis';

/**
 * The module catalogue: what a tenant module id opens in the shell (the spec's entry: id, label, route, icon,
 * defaultConfig). `defaultConfig` is what a tenant module's `config` starts from when the tenant has set nothing.
 */
export interface ModuleEntry {
  id: string;
  label: string;
  route: string;
  icon: ModuleIcon;
  defaultConfig: Record<string, unknown>;
}

export const moduleCatalogue: ModuleEntry[] = [
  {
    id: 'schedule',
    label: 'Schedule',
    route: '/schedule',
    icon: 'calendar',
    defaultConfig: {
      defaultView: 'month',
      weekStartsOn: 'monday',
      enableWorkingHours: false,
      workingHoursStart: 9,
      workingHoursEnd: 17,
    },
  },
  {
    id: 'notes',
    label: 'Notes',
    route: '/notes/all',
    icon: 'notes',
    defaultConfig: { viewMode: 'grid', autoSaveMs: 1000 },
  },
  { id: 'chat', label: 'Chat', route: '/chat', icon: 'chat', defaultConfig: { groups: true } },
  { id: 'calls', label: 'Calls', route: '/calls', icon: 'calls', defaultConfig: { video: true } },
  { id: 'tasks', label: 'Tasks', route: '/tasks', icon: 'tasks', defaultConfig: { defaultView: 'list' } },
  {
    id: 'drive',
    label: 'Drive',
    route: '/drive',
    icon: 'drive',
    defaultConfig: { signatures: true },
  },
  { id: 'cis', label: 'CIS', route: '/cis', icon: 'cis', defaultConfig: { testingTools: false } },
];

export function enabledModules(modules: { id: string; enabled: boolean }[]): ModuleEntry[] {
  const enabled = new Set(modules.filter((module) => module.enabled).map((module) => module.id));
  return moduleCatalogue.filter((entry) => enabled.has(entry.id));
}

/**
 * The modules the shell offers: enabled for the tenant and with screens in this version (`registered`: the ids of
 * the feature folders that register a view, web/src/app/moduleViews.ts). A catalogue module whose screens have not
 * landed yet is neither listed nor routed to; it appears by registering its view.
 */
export function shellModules(
  modules: { id: string; enabled: boolean }[],
  registered: { has(id: string): boolean },
): ModuleEntry[] {
  return enabledModules(modules).filter((entry) => registered.has(entry.id));
}

/** The catalogue module whose route holds `pathname` ('/cis/invoices' → CIS), if any. */
export function moduleOfPath(pathname: string): ModuleEntry | undefined {
  const first = pathname.split('/')[1] ?? '';
  return moduleCatalogue.find((entry) => entry.route.split('/')[1] === first && first !== '');
}

/** Where the shell opens (after sign-in and on `/`): the first module it offers, else the Welcome page. */
export function landingRoute(offered: readonly ModuleEntry[]): string {
  return offered[0]?.route ?? '/welcome';
}

/** A tenant module's settings: the catalogue's defaults with the tenant's own `config` over them. */
export function moduleConfig(
  entry: ModuleEntry,
  config: Record<string, unknown> | undefined,
): Record<string, unknown> {
  return { ...entry.defaultConfig, ...config };
}
