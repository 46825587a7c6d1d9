import { useSearchParams } from 'react-router';

/** A list filter kept in the address (so the top bar's search and export see the same filters). */
export function useUrlFilter<T extends string>(
  key: string,
  fallback: T,
  allowed: readonly T[],
): [T, (value: T) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get(key);
  const value = raw !== null && (allowed as readonly string[]).includes(raw) ? (raw as T) : fallback;
  const set = (next: T) => {
    setParams(
      (previous) => {
        const updated = new URLSearchParams(previous);
        if (next === fallback) updated.delete(key);
        else updated.set(key, next);
        if (key !== 'page') updated.delete('page');
        return updated;
      },
      { replace: true },
    );
  };
  return [value, set];
}

export function useUrlSearch(): string {
  const [params] = useSearchParams();
  return params.get('search') ?? '';
}
