import { moduleCatalogue, SHELL_PAGES, type ModuleEntry } from '@workspace/rules';

// The module catalogue itself (its entries and icons) is in @workspace/rules (services/rules/src/staff-app.ts), where
// the bff reads the staff app's sections from it too.
export { moduleCatalogue, type ModuleEntry, type ModuleIcon } from '@workspace/rules';

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
  return offered[0]?.route ?? SHELL_PAGES.welcome;
}

/** A tenant module's settings: the catalogue's defaults with the tenant's own `config` over them. */
export function moduleConfig(
  entry: ModuleEntry,
  config: Record<string, unknown> | undefined,
): Record<string, unknown> {
  return { ...entry.defaultConfig, ...config };
}
