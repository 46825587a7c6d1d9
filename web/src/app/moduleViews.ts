import type { ComponentType } from 'react';
import type { Session } from './api';
import type { AppDispatch } from './store';

/** A module's screens as the shell mounts them at the module's route (inside the module's error boundary). */
export interface ModuleView {
  /** The catalogue's module id (web/src/app/modules.ts). */
  id: string;
  View: ComponentType<{ session: Session }>;
  /**
   * A first page load inside the module (`pathname` under its route): starts what the page will ask for that needs
   * only the session cookie (its code chunk, its first queries), beside the session instead of after it.
   */
  preload?: (dispatch: AppDispatch, pathname: string) => void;
}

// Every feature folder with a `module.ts` exporting `moduleView` contributes its screens, found at build time: a new
// module's folder joins the shell by existing. A module without one shows the catalogue's placeholder home.
const entries = import.meta.glob<{ moduleView: ModuleView }>('../features/*/module.ts', { eager: true });

export const moduleViews: ReadonlyMap<string, ModuleView['View']> = new Map(
  Object.values(entries).map(({ moduleView }) => [moduleView.id, moduleView.View]),
);

/** The registered modules' preloads, by module id. */
export const modulePreloads: ReadonlyMap<string, NonNullable<ModuleView['preload']>> = new Map(
  Object.values(entries).flatMap(({ moduleView }) =>
    moduleView.preload ? [[moduleView.id, moduleView.preload] as const] : [],
  ),
);
