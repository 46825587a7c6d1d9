import { useCallback, useEffect, useState } from 'react';
import { portalJson } from './session';

/** One GET of the portal's API for a page: its data, its failure's message, and a reload. */
export function usePortalQuery<T>(path: string) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setData(await portalJson<T>(path));
      setError(null);
    } catch (failure) {
      setError((failure as Error).message);
    }
  }, [path]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, reload, setData };
}
