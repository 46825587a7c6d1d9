import { randomUUID } from 'node:crypto';
import type { Knex } from '@workspace/kit';
import type { NewNotification, NotificationType } from '../domain/notifications.js';

/** Where a page starts: after this item (newest first, ties by id). */
export interface ListCursor {
  createdAt: string;
  id: string;
}

export interface NotificationRecord {
  id: string;
  tenantId: string;
  targetUid: string;
  type: NotificationType;
  subject: string;
  link: string;
  sourceKey: string;
  fromUid: string | null;
  subjectType: string | null;
  subjectId: string | null;
  subjectName: string | null;
  message: string | null;
  readAt: Date | null;
  createdAt: Date;
}

interface NotificationRow {
  notification_id: string;
  tenant_id: string;
  target_uid: string;
  type: NotificationType;
  subject: string;
  link: string;
  source_key: string;
  from_uid: string | null;
  subject_type: string | null;
  subject_id: string | null;
  subject_name: string | null;
  message: string | null;
  read_at: Date | null;
  created_at: Date;
}

const toRecord = (row: NotificationRow): NotificationRecord => ({
  id: row.notification_id,
  tenantId: row.tenant_id,
  targetUid: row.target_uid,
  type: row.type,
  subject: row.subject,
  link: row.link,
  sourceKey: row.source_key,
  fromUid: row.from_uid,
  subjectType: row.subject_type,
  subjectId: row.subject_id,
  subjectName: row.subject_name,
  message: row.message,
  readAt: row.read_at,
  createdAt: row.created_at,
});

/**
 * The in-app notifications of one tenant (the transaction has its tenant set: row-level security keeps the rest
 * out). Every read and change names the person: nobody's query reaches another person's notifications.
 */
export class NotificationStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /** Adds those not made yet (by tenant, person and source key); answers the ones added. */
  async add(items: readonly NewNotification[], at: Date): Promise<NotificationRecord[]> {
    if (items.length === 0) return [];
    const rows = await this.trx('notifications')
      .insert(
        items.map((item) => ({
          notification_id: randomUUID(),
          tenant_id: item.tenantId,
          target_uid: item.targetUid,
          type: item.type,
          subject: item.subject,
          link: item.link,
          source_key: item.sourceKey,
          from_uid: item.fromUid ?? null,
          subject_type: item.subjectType ?? null,
          subject_id: item.subjectId ?? null,
          subject_name: item.subjectName ?? null,
          message: item.message ?? null,
          created_at: at,
        })),
      )
      .onConflict(['tenant_id', 'target_uid', 'source_key'])
      .ignore()
      .returning<NotificationRow[]>('*');
    return rows.map(toRecord);
  }

  /** The person's notifications, newest first, after the cursor. */
  async page(targetUid: string, limit: number, after?: ListCursor): Promise<NotificationRecord[]> {
    const query = this.trx('notifications')
      .where({ target_uid: targetUid })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'notification_id', order: 'desc' },
      ])
      .limit(limit);
    if (after) {
      void query.whereRaw('(created_at, notification_id) < (?::timestamptz, ?::uuid)', [
        after.createdAt,
        after.id,
      ]);
    }
    return (await query.select<NotificationRow[]>('*')).map(toRecord);
  }

  async unreadCount(targetUid: string): Promise<number> {
    const row = await this.trx('notifications')
      .where({ target_uid: targetUid })
      .whereNull('read_at')
      .count<{ count: string }[]>({ count: '*' })
      .first();
    return Number(row?.count ?? 0);
  }

  async total(targetUid: string): Promise<number> {
    const row = await this.trx('notifications')
      .where({ target_uid: targetUid })
      .count<{ count: string }[]>({ count: '*' })
      .first();
    return Number(row?.count ?? 0);
  }

  async find(targetUid: string, id: string): Promise<NotificationRecord | undefined> {
    const row = await this.trx('notifications')
      .where({ target_uid: targetUid, notification_id: id })
      .first<NotificationRow | undefined>();
    return row ? toRecord(row) : undefined;
  }

  /** Marks one of the person's notifications read (kept as it is when it already was); undefined when not theirs. */
  async markRead(targetUid: string, id: string, at: Date): Promise<NotificationRecord | undefined> {
    const [row] = await this.trx('notifications')
      .where({ target_uid: targetUid, notification_id: id })
      .whereNull('read_at')
      .update({ read_at: at })
      .returning<NotificationRow[]>('*');
    return row ? toRecord(row) : this.find(targetUid, id);
  }

  /** Marks every unread notification of the person read; answers how many. */
  async markAllRead(targetUid: string, at: Date): Promise<number> {
    return this.trx('notifications')
      .where({ target_uid: targetUid })
      .whereNull('read_at')
      .update({ read_at: at });
  }
}
