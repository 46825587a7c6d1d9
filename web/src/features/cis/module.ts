import type { ModuleView } from '../../app/moduleViews';
import { preloadQuery } from '../../app/api';
import { cisApi } from './api';
import { CisModule } from './CisModule';
import { invoiceListQuery, subcontractorListQuery } from './components/filters';
import { cisMode, cisSection } from './components/sections';

/**
 * CIS in the shell at /cis/* (CisModule loads the screens on the first visit). A first page load inside CIS starts
 * the screens' chunk and the caller's abilities beside the session, and the data of the page it opens on: the
 * dashboard, the settings, or the invoice or subcontractor list with the filters in the address.
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
    const params = new URLSearchParams(window.location.search);
    if (section === 'invoices')
      preloadQuery(dispatch, cisApi.endpoints.invoices.initiate(invoiceListQuery(params)));
    if (section === 'subcontractors')
      preloadQuery(dispatch, cisApi.endpoints.subcontractors.initiate(subcontractorListQuery(params)));
    if (section === 'settings') {
      preloadQuery(dispatch, cisApi.endpoints.cisSettings.initiate(undefined));
      preloadQuery(dispatch, cisApi.endpoints.cisRolePermissions.initiate(undefined));
    }
  },
};
