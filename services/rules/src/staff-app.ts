// The staff app's module catalogue and its top-level sections (`@workspace/rules`, browser-safe): the web's shell
// offers and routes the modules by it (web/src/app/modules.ts); the bff serves the staff app at its sections to a
// signed-out browser, which the app sends to sign in, and the site's 404 page elsewhere (bff/src/http/web-bundles.ts).

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

/** The shell's own pages, outside every module (web/src/features/shell/Shell.tsx routes them): their paths. */
export const SHELL_PAGES = {
  welcome: '/welcome',
  settings: '/settings',
  notifications: '/notifications',
  audit: '/audit',
} as const;

/** The staff app's top-level sections: its own pages' and every catalogue module's first segment ('cis' for /cis). */
export const STAFF_APP_SECTIONS: ReadonlySet<string> = new Set(
  [...Object.values(SHELL_PAGES), ...moduleCatalogue.map((entry) => entry.route)].map(
    (route) => route.split('/')[1] ?? '',
  ),
);
