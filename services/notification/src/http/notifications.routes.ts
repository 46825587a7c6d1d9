import { ApiRouter, serveSse } from '@workspace/kit';
import {
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  unreadCount,
  type NotificationDeps,
} from '../commands/notifications.js';
import {
  NOTIFICATIONS_EVENT,
  UNREAD_EVENT,
  type NotificationChange,
  type NotificationChangeHub,
} from '../workers/notification-changes.js';
import { presentNotification } from './notifications.present.js';
import {
  markAllReadView,
  markReadView,
  notificationListQuery,
  notificationListView,
  notificationParams,
} from './notifications.schemas.js';

/**
 * The signed-in user's own in-app notifications (the bell): the list, its live stream, mark read. Every route takes
 * the person from the access token alone: nobody can name another person or tenant.
 */
export function notificationsRoutes(deps: NotificationDeps, hub: NotificationChangeHub): ApiRouter {
  return new ApiRouter()
    .route({
      // Before /notifications/:id/..., which would otherwise take 'stream' for an id.
      method: 'get',
      path: '/notifications/stream',
      summary:
        'Server-Sent Events for the bell: `unread` with {unreadCount} first, then `notifications` with ' +
        '{targetUid, action} whenever one of the caller’s notifications is added (insert) or read (update)',
      responses: { 200: { description: 'text/event-stream' } },
      handler: async ({ ctx, req, res }) => {
        const count = await unreadCount(deps, ctx);
        await serveSse(hub, ctx.tenantId, req, res, {
          initial: () =>
            Promise.resolve([{ event: UNREAD_EVENT, data: JSON.stringify({ unreadCount: count }) }]),
          filter: (message) =>
            message.event !== NOTIFICATIONS_EVENT ||
            (JSON.parse(message.data) as NotificationChange).targetUid === ctx.userId,
        });
      },
    })
    .route({
      method: 'get',
      path: '/notifications',
      summary: 'The caller’s notifications, newest first, a page at a time, with the unread count',
      request: { query: notificationListQuery },
      responses: { 200: { description: 'A page of notifications', schema: notificationListView } },
      handler: async ({ ctx, query }) => {
        const page = await listNotifications(deps, ctx, query);
        return { ...page, items: page.items.map(presentNotification) };
      },
    })
    .route({
      method: 'post',
      path: '/notifications/read-all',
      summary: 'Mark every one of the caller’s notifications read',
      responses: { 200: { description: 'How many were marked', schema: markAllReadView } },
      handler: ({ ctx }) => markAllNotificationsRead(deps, ctx),
    })
    .route({
      method: 'post',
      path: '/notifications/:id/read',
      summary: 'Mark one of the caller’s notifications read (another person’s is not found)',
      request: { params: notificationParams },
      responses: {
        200: { description: 'The notification, read', schema: markReadView },
        404: { description: 'Not one of the caller’s notifications' },
      },
      handler: async ({ ctx, params }) => {
        const { notification, unreadCount: unread } = await markNotificationRead(deps, ctx, params.id);
        return { notification: presentNotification(notification), unreadCount: unread };
      },
    });
}
