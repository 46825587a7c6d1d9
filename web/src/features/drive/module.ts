import type { ModuleView } from '../../app/moduleViews';
import { preloadQuery } from '../../app/api';
import { driveApi } from './api/driveApi';
import { DriveModule } from './DriveModule';

/**
 * The drive in the shell at /drive/* (DriveModule loads the screens on the first visit). A first page load inside
 * the drive starts the screens' chunk and the caller's abilities beside the session.
 */
export const moduleView: ModuleView = {
  id: 'drive',
  View: DriveModule,
  preload: (dispatch) => {
    void import('./DriveApp');
    preloadQuery(dispatch, driveApi.endpoints.driveAbilities.initiate(undefined));
  },
};
