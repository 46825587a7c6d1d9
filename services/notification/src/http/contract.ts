// The notification service's API contract for the web (ADR 0028): the bell's views as the browser reads them.
// Browser-safe: the schemas import only zod and the domain. The web imports this module with `import type` only.
import type { z } from 'zod';
import type {
  markAllReadView,
  markReadView,
  notificationListQuery,
  notificationListView,
  notificationView,
} from './notifications.schemas.js';

export type { NotificationType } from '../domain/notifications.js';
export type NotificationView = z.output<typeof notificationView>;
export type NotificationListResponse = z.output<typeof notificationListView>;
export type NotificationListQuery = z.input<typeof notificationListQuery>;
export type MarkReadResponse = z.output<typeof markReadView>;
export type MarkAllReadResponse = z.output<typeof markAllReadView>;
