import { useEffect } from 'react';
import { useDispatch } from 'react-redux';
import type { AppDispatch } from '../../app/store';
import { openLiveStream } from '../../ui/liveStream';
import { notificationsApi } from './notificationsApi';

/**
 * The bell's live updates: one stream on /api/notification/stream per tab. A new notification of the user, or one
 * read (here or in another tab), refetches the list and its unread count; so does every (re)connection, as changes
 * may have been missed meanwhile (the stream sends the unread count first).
 */
export function useNotificationStream(uid: string | undefined): void {
  const dispatch = useDispatch<AppDispatch>();
  useEffect(() => {
    if (!uid) return;
    const refetch = () => {
      dispatch(notificationsApi.util.invalidateTags(['Notifications']));
    };
    return openLiveStream('/api/notification/stream', {
      events: { unread: refetch, notifications: refetch },
    });
  }, [dispatch, uid]);
}
