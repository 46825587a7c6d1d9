import type { z } from 'zod';
import type { dashboard } from '../commands/dashboard.js';
import type { ActivityRecord } from '../db/activity.store.js';
import type { Performer } from '../commands/performers.js';
import type { activityEntry, dashboardResponse } from './dashboard.schemas.js';
import { timestamp } from './http-helpers.js';

/** An activity entry with who did it as `performers` (commands/performers.ts) tells this reader. */
export const presentActivity = (
  row: ActivityRecord,
  performers: ReadonlyMap<string, Performer>,
): z.input<typeof activityEntry> => ({
  id: String(row.id),
  action: row.action,
  targetType: row.targetType,
  targetId: row.targetId,
  summary: row.summary,
  details: row.details,
  performedBy: row.performedBy,
  performedByName: performers.get(row.performedBy)?.name ?? null,
  performedByLabel: performers.get(row.performedBy)?.label ?? 'by another user',
  performedAt: timestamp(row.performedAt),
});

export const presentDashboard = (
  { activity, ...board }: Awaited<ReturnType<typeof dashboard>>,
  performers: ReadonlyMap<string, Performer>,
): z.input<typeof dashboardResponse> => ({
  ...board,
  recentActivity: activity.map((row) => presentActivity(row, performers)),
});
