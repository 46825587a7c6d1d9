import type { NotificationRecord } from '../db/notifications.store.js';
import type { NotificationView } from './notifications.schemas.js';

export const presentNotification = (record: NotificationRecord): NotificationView => ({
  id: record.id,
  type: record.type,
  subject: record.subject,
  link: record.link,
  fromUid: record.fromUid,
  subjectType: record.subjectType,
  subjectId: record.subjectId,
  subjectName: record.subjectName,
  message: record.message,
  read: record.readAt !== null,
  readAt: record.readAt ? record.readAt.toISOString() : null,
  createdAt: record.createdAt.toISOString(),
});
