import type { NotificationRecord } from '../db/notifications.store.js';
import type { NotificationView } from './notifications.schemas.js';

export const presentNotification = (record: NotificationRecord): NotificationView => ({
  id: record.id,
  type: record.type,
  subject: record.subject,
  link: record.link,
  read: record.readAt !== null,
  readAt: record.readAt ? record.readAt.toISOString() : null,
  createdAt: record.createdAt.toISOString(),
});
