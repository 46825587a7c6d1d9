/** The module catalogue: what a tenant module id opens in the shell. */
export interface ModuleEntry {
  id: string;
  label: string;
  route: string;
}

export const moduleCatalogue: ModuleEntry[] = [
  { id: 'schedule', label: 'Schedule', route: '/schedule' },
  { id: 'notes', label: 'Notes', route: '/notes/all' },
  { id: 'chat', label: 'Chat', route: '/chat' },
  { id: 'calls', label: 'Calls', route: '/calls' },
  { id: 'tasks', label: 'Tasks', route: '/tasks' },
  { id: 'drive', label: 'Drive', route: '/drive' },
  { id: 'cis', label: 'CIS', route: '/cis' },
];

export function enabledModules(modules: { id: string; enabled: boolean }[]): ModuleEntry[] {
  const enabled = new Set(modules.filter((module) => module.enabled).map((module) => module.id));
  return moduleCatalogue.filter((entry) => enabled.has(entry.id));
}
