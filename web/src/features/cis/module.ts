import type { ModuleView } from '../../app/moduleViews';
import { CisModule } from './CisModule';

/** CIS in the shell at /cis/* (CisModule loads the screens on the first visit). */
export const moduleView: ModuleView = { id: 'cis', View: CisModule };
