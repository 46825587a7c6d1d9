import { SseHub, type Logger } from '@workspace/kit';

/** The channel migration 003's trigger notifies after every insert or update of `notifications`, by any writer. */
export const NOTIFICATION_CHANGES_CHANNEL = 'notification_changes';

/** The SSE event of a change: `{targetUid, action}` (insert: new ones; update: read). */
export const NOTIFICATIONS_EVENT = 'notifications';
/** The SSE event a stream opens with: the reader's unread count. */
export const UNREAD_EVENT = 'unread';

export interface NotificationChange {
  targetUid: string;
  action: 'insert' | 'update';
}

/**
 * The bell's live updates (as the drive's file list): one LISTEN per process on the trigger's channel (every replica
 * hears every commit), fanned out to the tenant's streams; each stream passes on only its reader's changes. Ids and
 * what changed only, never a subject.
 */
export class NotificationChangeHub extends SseHub {
  constructor(databaseUrl: string, logger: Logger) {
    super({
      name: 'notification-changes',
      databaseUrl,
      channel: NOTIFICATION_CHANGES_CHANNEL,
      logger,
      parse: (payload) => {
        try {
          const parsed = JSON.parse(payload) as { tenantId?: string; targetUid?: string; action?: string };
          if (!parsed.tenantId || !parsed.targetUid) return undefined;
          const change: NotificationChange = {
            targetUid: parsed.targetUid,
            action: parsed.action === 'insert' ? 'insert' : 'update',
          };
          return { tenantId: parsed.tenantId, event: NOTIFICATIONS_EVENT, data: JSON.stringify(change) };
        } catch {
          return undefined;
        }
      },
    });
  }
}
