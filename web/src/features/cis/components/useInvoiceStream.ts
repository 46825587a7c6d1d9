import { useEffect } from 'react';
import { useDispatch } from 'react-redux';
import { invalidateInvoices } from '../api';

/** Live updates: each event on /api/cis/invoices/stream refetches the invoice list. */
export function useInvoiceStream(): void {
  const dispatch = useDispatch();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/cis/invoices/stream');
    const refetch = () => {
      dispatch(invalidateInvoices());
    };
    source.addEventListener('invoices', refetch);
    return () => {
      source.removeEventListener('invoices', refetch);
      source.close();
    };
  }, [dispatch]);
}
