import { useEffect, useMemo, useState } from 'react';
import { debounce, SEARCH_DEBOUNCE_MS } from './debounce';

/** The value, `ms` (the search debounce by default) after it last changed: a thin wrapper over `debounce`. */
export function useDebouncedValue<T>(value: T, ms = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  const debounced = useMemo(
    () =>
      debounce((next: T) => {
        setSettled(() => next);
      }, ms),
    [ms],
  );
  useEffect(() => {
    debounced.call(value);
  }, [debounced, value]);
  useEffect(
    () => () => {
      debounced.cancel();
    },
    [debounced],
  );
  return settled;
}
