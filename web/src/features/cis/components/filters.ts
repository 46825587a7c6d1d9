import { useSearchParams } from 'react-router';

/** A list filter's value in the address: the allowed value given, else the fallback. */
export function urlFilterValue<T extends string>(
  params: URLSearchParams,
  key: string,
  fallback: T,
  allowed: readonly T[],
): T {
  const raw = params.get(key);
  return raw !== null && (allowed as readonly string[]).includes(raw) ? (raw as T) : fallback;
}

/** A list filter kept in the address (so the top bar's search and export see the same filters). */
export function useUrlFilter<T extends string>(
  key: string,
  fallback: T,
  allowed: readonly T[],
): [T, (value: T) => void] {
  const [params, setParams] = useSearchParams();
  const value = urlFilterValue(params, key, fallback, allowed);
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

/** The invoice list's status filter values (cis.md §5, with Portal Pending and Rejected: issue 13). */
export const invoiceStatuses = [
  'all',
  'draft',
  'portal_draft',
  'approved',
  'paid',
  'cancelled',
  'rejected',
] as const;
export const INVOICE_PAGE_SIZE = 50;

/**
 * The invoice list's query as the address gives it: read once here by the list and by the first load's preload, so
 * the preloaded answer is the one the list asks for.
 */
export function invoiceListQuery(params: URLSearchParams) {
  return {
    search: params.get('search') ?? '',
    status: urlFilterValue(params, 'status', 'all', invoiceStatuses),
    period: urlFilterValue(params, 'period', 'all', invoicePeriods),
    page: Math.max(1, Number(params.get('page') ?? '1') || 1),
    pageSize: INVOICE_PAGE_SIZE,
  };
}

export const subcontractorStatuses = ['all', 'active', 'archived'] as const;
export const subcontractorTypes = ['all', 'individual', 'company', 'partnership'] as const;

/** The subcontractor list's query as the address gives it (the list and the first load's preload). */
export function subcontractorListQuery(params: URLSearchParams) {
  return {
    search: params.get('search') ?? '',
    status: urlFilterValue(params, 'status', 'all', subcontractorStatuses),
    type: urlFilterValue(params, 'type', 'all', subcontractorTypes),
  };
}
