import { z } from 'zod';
import {
  NOTIFICATION_TYPES,
  NOTIFICATIONS_PAGE_DEFAULT,
  NOTIFICATIONS_PAGE_MAX,
} from '../domain/notifications.js';

export const notificationListQuery = z.object({
  limit: z.coerce
    .number()
    .int('Limit must be a whole number')
    .min(1, 'Limit must be at least 1')
    .max(NOTIFICATIONS_PAGE_MAX, `Limit must be at most ${NOTIFICATIONS_PAGE_MAX}`)
    .default(NOTIFICATIONS_PAGE_DEFAULT),
  /** The previous page's nextCursor. */
  cursor: z.string().min(1).max(200).optional(),
});

export const notificationParams = z.object({ id: z.uuid('Notification not found') });

export const notificationView = z.object({
  id: z.uuid(),
  type: z.enum(NOTIFICATION_TYPES),
  subject: z.string(),
  /** A path of the staff app. */
  link: z.string(),
  /** Who caused it, when a colleague did. */
  fromUid: z.string().nullable(),
  /** What it is about: file, share, signature, invoice, return, statements (note, when notes exist). */
  subjectType: z.string().nullable(),
  subjectId: z.string().nullable(),
  subjectName: z.string().nullable(),
  message: z.string().nullable(),
  read: z.boolean(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type NotificationView = z.infer<typeof notificationView>;

export const notificationListView = z.object({
  items: z.array(notificationView),
  unreadCount: z.number().int(),
  total: z.number().int(),
  /** Pass as `cursor` for the next (older) page; null on the last. */
  nextCursor: z.string().nullable(),
});
export type NotificationListView = z.infer<typeof notificationListView>;

export const markReadView = z.object({ notification: notificationView, unreadCount: z.number().int() });
export type MarkReadView = z.infer<typeof markReadView>;

export const markAllReadView = z.object({ marked: z.number().int(), unreadCount: z.number().int() });
export type MarkAllReadView = z.infer<typeof markAllReadView>;
