import { useEffect, useRef } from 'react';

/**
 * Live entries: each `entry` (a new entry the reader may see) or `changed` (one too large to send) event on
 * /api/audit/entries/stream calls `onNew`. EventSource reconnects a dropped stream itself.
 */
export function useAuditStream(onNew: () => void): void {
  const latest = useRef(onNew);
  useEffect(() => {
    latest.current = onNew;
  }, [onNew]);
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/audit/entries/stream');
    const arrived = () => {
      latest.current();
    };
    source.addEventListener('entry', arrived);
    source.addEventListener('changed', arrived);
    return () => {
      source.removeEventListener('entry', arrived);
      source.removeEventListener('changed', arrived);
      source.close();
    };
  }, []);
}
