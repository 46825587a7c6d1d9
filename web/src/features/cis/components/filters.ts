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

/** The invoice period filters: the list offers the first three, the top bar all five (cis.md §5). */
export const invoicePeriods = ['all', 'current', 'previous', 'quarter', 'year'] as const;
export type InvoicePeriodValue = (typeof invoicePeriods)[number];

export const invoicePeriodOptions: { value: InvoicePeriodValue; label: string }[] = [
  { value: 'all', label: 'All periods' },
  { value: 'current', label: 'Current month' },
  { value: 'previous', label: 'Previous' },
  { value: 'quarter', label: 'Last 3 tax months' },
  { value: 'year', label: 'This tax year' },
];

/** The list's own period options; a quarter or year chosen in the top bar is shown by its label. */
export function listPeriodOptions(current: InvoicePeriodValue) {
  return invoicePeriodOptions.filter(
    (option) => ['all', 'current', 'previous'].includes(option.value) || option.value === current,
  );
}
