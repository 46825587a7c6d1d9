import type { AuditEntryView } from '@workspace/audit/contract';
import { useEffect, useRef } from 'react';

/** New entries arriving together are shown together: at most one refresh per this many ms. */
export const LIVE_BATCH_MS = 1000;

/** What arrived on the stream: the new entry, or undefined for one too large to send (`changed`). */
export type Arrival = AuditEntryView | undefined;

/**
 * Live entries: each `entry` (a new entry the reader may see, its view) or `changed` (one too large to send) event on
 * /api/audit/entries/stream; `onNew` gets what arrived, at most once per LIVE_BATCH_MS, so a burst (a bulk approval,
 * an import) refreshes the list once. EventSource reconnects a dropped stream itself.
 */
export function useAuditStream(onNew: (arrived: Arrival[]) => void): void {
  const latest = useRef(onNew);
  useEffect(() => {
    latest.current = onNew;
  }, [onNew]);
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/audit/entries/stream');
    let pending: Arrival[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const arrived = pending;
      pending = [];
      if (arrived.length > 0) latest.current(arrived);
    };
    const add = (arrival: Arrival) => {
      pending.push(arrival);
      timer ??= setTimeout(flush, LIVE_BATCH_MS);
    };
    const entry = (event: MessageEvent<string>) => {
      try {
        add(JSON.parse(event.data) as AuditEntryView);
      } catch {
        add(undefined);
      }
    };
    const changed = () => {
      add(undefined);
    };
    source.addEventListener('entry', entry);
    source.addEventListener('changed', changed);
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      source.removeEventListener('entry', entry);
      source.removeEventListener('changed', changed);
      source.close();
    };
  }, []);
}
