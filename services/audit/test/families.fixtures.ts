import { expect } from '@jest/globals';
import type { AuditHarness, ModuleEventPublisher } from './support.js';
import { testTenant } from './support.js';

export interface EntryItem {
  seq: number;
  id: string;
  action: string;
  module: string;
  targetId: string;
  actorId: string;
  source: string;
  sourceEventId: string;
  payload: Record<string, string>;
}

/** Every entry of `tenantId` matching `query` (all pages), read as the tenant's auditor. */
export async function entriesOf(h: AuditHarness, tenantId: string, query = ''): Promise<EntryItem[]> {
  const token = await h.token(['audit.read'], tenantId);
  const items: EntryItem[] = [];
  for (let page = 1; ; page++) {
    const answer = await h.call(token, 'GET', `/entries?pageSize=100&page=${page}${query}`);
    expect(answer.status).toBe(200);
    const batch = answer.body.items as EntryItem[];
    items.push(...batch);
    if (batch.length < 100) return items;
  }
}

/**
 * Publishes each action as its module publishes it (the same CloudEvents type, source and data shape) for a fresh
 * tenant, and answers the tenant: the entries test then finds one entry per action.
 */
export async function publishActions(
  publisher: ModuleEventPublisher,
  module: 'cis' | 'drive',
  actions: readonly string[],
): Promise<{ tenantId: string; ids: Map<string, string> }> {
  const tenantId = testTenant();
  const ids = new Map<string, string>();
  for (const action of actions) {
    const targetId = `target-${action}`;
    const id =
      module === 'cis'
        ? await publisher.publish('cis', action, tenantId, {
            actorId: 'user-cis',
            targetType: action.split('.')[1],
            targetId,
            details: { status: 'done' },
          })
        : await publisher.publish('drive', `drive.${action.toLowerCase().replace('_', '.')}`, tenantId, {
            action,
            actorId: 'user-drive',
            targetType: 'file',
            targetId,
            details: { driveId: 'drive-1' },
          });
    ids.set(action, id);
  }
  return { tenantId, ids };
}

/** Expects exactly one entry per action, recording its event (source event id and target). */
export function expectOneEntryPerAction(entries: EntryItem[], ids: Map<string, string>): void {
  for (const [action, id] of ids) {
    const found = entries.filter((entry) => entry.action === action);
    expect({ action, entries: found.map((entry) => [entry.sourceEventId, entry.targetId]) }).toEqual({
      action,
      entries: [[id, `target-${action}`]],
    });
  }
}
