// The signed-in user's in-app notifications (`/api/notification/*` → notification's `/v1/notifications/*`), injected
// into the app's RTK Query API. The stream (useNotificationStream) refetches them when one is added or read.
import type {
  MarkAllReadResponse,
  MarkReadResponse,
  NotificationListResponse,
} from '@workspace/notification/contract';
import { api } from '../../app/api';

export const notificationsApi = api.enhanceEndpoints({ addTagTypes: ['Notifications'] }).injectEndpoints({
  endpoints: (build) => ({
    notifications: build.query<NotificationListResponse, { limit: number; cursor?: string }>({
      query: ({ limit, cursor }) => {
        const query = new URLSearchParams({ limit: String(limit) });
        if (cursor) query.set('cursor', cursor);
        return `/notification?${query.toString()}`;
      },
      providesTags: ['Notifications'],
    }),
    markNotificationRead: build.mutation<MarkReadResponse, string>({
      query: (id) => ({ url: `/notification/${encodeURIComponent(id)}/read`, method: 'POST', body: {} }),
      invalidatesTags: ['Notifications'],
    }),
    markAllNotificationsRead: build.mutation<MarkAllReadResponse, undefined>({
      query: () => ({ url: '/notification/read-all', method: 'POST', body: {} }),
      invalidatesTags: ['Notifications'],
    }),
  }),
});

export const {
  useNotificationsQuery,
  useLazyNotificationsQuery,
  useMarkNotificationReadMutation,
  useMarkAllNotificationsReadMutation,
} = notificationsApi;
