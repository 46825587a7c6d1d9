import type { z } from 'zod';
import type { dashboard } from '../commands/dashboard.js';
import type { ActivityRecord } from '../db/activity.store.js';
import type { activityEntry, dashboardResponse } from './dashboard.schemas.js';
import { timestamp } from './http-helpers.js';

export const presentActivity = (
  row: ActivityRecord,
  names: ReadonlyMap<string, string> = new Map(),
): z.input<typeof activityEntry> => ({
  id: String(row.id),
  action: row.action,
  targetType: row.targetType,
  targetId: row.targetId,
  summary: row.summary,
  details: row.details,
  performedBy: row.performedBy,
  performedByName: names.get(row.performedBy) ?? null,
  performedAt: timestamp(row.performedAt),
});

export const presentDashboard = (
  { activity, ...board }: Awaited<ReturnType<typeof dashboard>>,
  names: ReadonlyMap<string, string> = new Map(),
): z.input<typeof dashboardResponse> => ({
  ...board,
  recentActivity: activity.map((row) => presentActivity(row, names)),
});
