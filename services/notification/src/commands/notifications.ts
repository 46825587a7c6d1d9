import { problems, withTenant, type Clock, type Knex, type RequestContext } from '@workspace/kit';
import { NotificationStore, type ListCursor, type NotificationRecord } from '../db/notifications.store.js';
import { isAppLink, type NewNotification } from '../domain/notifications.js';

export interface NotificationDeps {
  db: Knex;
  clock: Clock;
}

/** A cursor of the bell's list: the last item's time and id (newest first, ties by id). */
function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`, 'utf8').toString('base64url');
}

function decodeCursor(value: string): ListCursor | undefined {
  const text = Buffer.from(value, 'base64url').toString('utf8');
  const [createdAt, id, ...rest] = text.split('|');
  if (rest.length > 0 || !createdAt || !id) return undefined;
  if (Number.isNaN(Date.parse(createdAt))) return undefined;
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  return { createdAt, id };
}

export const NOTIFICATION_NOT_FOUND = 'Notification not found';

/** The signed-in staff member: a portal session (a subcontractor) has no notifications here. */
function personOf(ctx: RequestContext): { tenantId: string; uid: string } {
  if (ctx.subcontractorId) throw problems.forbidden('Notifications are for staff users.');
  return { tenantId: ctx.tenantId, uid: ctx.userId };
}

/**
 * Creates the notifications not made yet, in the caller's transaction (a consumer's, with the event's tenant set):
 * each person's once per source key. Answers those added. A link that is not a path of the app is a bug.
 */
export async function createNotifications(
  trx: Knex.Transaction,
  clock: Clock,
  items: readonly NewNotification[],
): Promise<NotificationRecord[]> {
  for (const item of items) {
    if (!isAppLink(item.link)) throw new Error(`notification link ${item.link} is not a path of the app`);
  }
  return new NotificationStore(trx).add(items, clock.now());
}

export interface NotificationPage {
  items: NotificationRecord[];
  unreadCount: number;
  total: number;
  nextCursor: string | null;
}

/** The caller's own notifications, newest first, a page at a time, with their unread count. */
export function listNotifications(
  deps: NotificationDeps,
  ctx: RequestContext,
  query: { limit: number; cursor?: string | undefined },
): Promise<NotificationPage> {
  const person = personOf(ctx);
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (query.cursor !== undefined && !after) throw problems.badRequest('The cursor is not valid.');
  return withTenant(deps.db, person.tenantId, async (trx) => {
    const store = new NotificationStore(trx);
    // One more than asked for tells whether a next page exists.
    const rows = await store.page(person.uid, query.limit + 1, after);
    const items = rows.slice(0, query.limit);
    const last = items.at(-1);
    return {
      items,
      unreadCount: await store.unreadCount(person.uid),
      total: await store.total(person.uid),
      nextCursor:
        rows.length > query.limit && last
          ? encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id })
          : null,
    };
  });
}

/** The caller's unread count (the bell's badge and its stream). */
export function unreadCount(deps: NotificationDeps, ctx: RequestContext): Promise<number> {
  const person = personOf(ctx);
  return withTenant(deps.db, person.tenantId, (trx) => new NotificationStore(trx).unreadCount(person.uid));
}

/** Marks one of the caller's notifications read: another person's, or another tenant's, is not found. */
export function markNotificationRead(
  deps: NotificationDeps,
  ctx: RequestContext,
  id: string,
): Promise<{ notification: NotificationRecord; unreadCount: number }> {
  const person = personOf(ctx);
  return withTenant(deps.db, person.tenantId, async (trx) => {
    const store = new NotificationStore(trx);
    const notification = await store.markRead(person.uid, id, deps.clock.now());
    if (!notification) throw problems.notFound(NOTIFICATION_NOT_FOUND);
    return { notification, unreadCount: await store.unreadCount(person.uid) };
  });
}

/** Marks every one of the caller's notifications read. */
export function markAllNotificationsRead(
  deps: NotificationDeps,
  ctx: RequestContext,
): Promise<{ marked: number; unreadCount: number }> {
  const person = personOf(ctx);
  return withTenant(deps.db, person.tenantId, async (trx) => {
    const store = new NotificationStore(trx);
    const marked = await store.markAllRead(person.uid, deps.clock.now());
    return { marked, unreadCount: await store.unreadCount(person.uid) };
  });
}
