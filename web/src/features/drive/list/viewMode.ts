// Grid or list, remembered per page in local storage (drive.md §2); grid when nothing is remembered.
import { useCallback, useState } from 'react';

export type ViewMode = 'grid' | 'list';
export const DEFAULT_VIEW_MODE: ViewMode = 'grid';

export const viewModeKey = (page: string) => `drive.viewMode.${page}`;

export function readViewMode(storage: Pick<Storage, 'getItem'> | undefined, page: string): ViewMode {
  try {
    const stored = storage?.getItem(viewModeKey(page));
    return stored === 'list' || stored === 'grid' ? stored : DEFAULT_VIEW_MODE;
  } catch {
    return DEFAULT_VIEW_MODE;
  }
}

export function useViewMode(page: string): [ViewMode, (mode: ViewMode) => void] {
  const [mode, setMode] = useState<ViewMode>(() => readViewMode(globalThis.localStorage, page));
  const change = useCallback(
    (next: ViewMode) => {
      setMode(next);
      try {
        globalThis.localStorage.setItem(viewModeKey(page), next);
      } catch {
        // private mode: the choice lasts the page
      }
    },
    [page],
  );
  return [mode, change];
}
