import { brandingApi } from '../features/settings/brandingApi';
import { api, preloadQuery } from './api';
import { moduleOfPath } from './modules';
import { modulePreloads } from './moduleViews';
import type { AppDispatch } from './store';

/**
 * The first page load's requests, all at once: the session, and beside it what the shell and the page will ask for
 * with only the session cookie (the logo, the footer, the module's chunk and first queries). Otherwise each waits
 * for the one before it to render its asker: session, then the module's code, then its abilities, then its data.
 * A signed-out visitor's requests are refused and the shell sends them to sign in, as before.
 */
export function preloadFirstPage(dispatch: AppDispatch, pathname: string): void {
  preloadQuery(dispatch, api.endpoints.session.initiate(undefined));
  preloadQuery(dispatch, brandingApi.endpoints.logoSettings.initiate(undefined));
  preloadQuery(dispatch, api.endpoints.footer.initiate(undefined));
  const module = moduleOfPath(pathname);
  if (module) modulePreloads.get(module.id)?.(dispatch, pathname);
}
