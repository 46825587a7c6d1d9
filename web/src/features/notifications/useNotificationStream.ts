import { useEffect } from 'react';
import { useDispatch } from 'react-redux';
import type { AppDispatch } from '../../app/store';
import { notificationsApi } from './notificationsApi';

/** After a stream that failed for good (401, 503), the next attempt; EventSource retries dropped streams itself. */
const RESTART_MS = 15_000;

/**
 * The bell's live updates: one EventSource on /api/notification/stream per tab. A new notification of the user, or
 * one read (here or in another tab), refetches the list and its unread count; so does every (re)connection, as
 * changes may have been missed meanwhile.
 */
export function useNotificationStream(uid: string | undefined): void {
  const dispatch = useDispatch<AppDispatch>();
  useEffect(() => {
    if (!uid || typeof EventSource === 'undefined') return;
    let source: EventSource | undefined;
    let restart: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const refetch = () => {
      dispatch(notificationsApi.util.invalidateTags(['Notifications']));
    };
    const open = () => {
      const stream = new EventSource('/api/notification/stream');
      source = stream;
      stream.addEventListener('unread', refetch);
      stream.addEventListener('notifications', refetch);
      stream.addEventListener('error', () => {
        if (stream.readyState !== EventSource.CLOSED || stopped) return;
        restart = setTimeout(open, RESTART_MS);
      });
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(restart);
      source?.close();
    };
  }, [dispatch, uid]);
}
