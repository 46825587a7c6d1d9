import type { ModuleView } from '../../app/moduleViews';
import { preloadQuery } from '../../app/api';
import { cisApi } from './api';
import { CisModule } from './CisModule';
import { cisMode, cisSection } from './components/sections';

/**
 * CIS in the shell at /cis/* (CisModule loads the screens on the first visit). A first page load inside CIS starts
 * the screens' chunk and the caller's abilities beside the session, and the dashboard's or the settings' data when it opens on them.
 */
export const moduleView: ModuleView = {
  id: 'cis',
  View: CisModule,
  preload: (dispatch, pathname) => {
    void import('./CisApp');
    preloadQuery(dispatch, cisApi.endpoints.cisAbilities.initiate(undefined));
    if (cisMode(pathname) !== 'list') return;
    const section = cisSection(pathname);
    if (section === 'dashboard') preloadQuery(dispatch, cisApi.endpoints.cisDashboard.initiate(undefined));
    if (section === 'settings') {
      preloadQuery(dispatch, cisApi.endpoints.cisSettings.initiate(undefined));
      preloadQuery(dispatch, cisApi.endpoints.cisRolePermissions.initiate(undefined));
    }
  },
};
