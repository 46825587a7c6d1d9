import type { dashboard } from '../commands/dashboard.js';
import type { ActivityRecord } from '../db/activity.store.js';
import { iso } from '../domain/timestamps.js';

export const presentActivity = (row: ActivityRecord) => ({
  id: String(row.id),
  action: row.action,
  targetType: row.targetType,
  targetId: row.targetId,
  summary: row.summary,
  details: row.details,
  performedBy: row.performedBy,
  performedAt: iso(row.performedAt),
});

export const presentDashboard = ({ activity, ...board }: Awaited<ReturnType<typeof dashboard>>) => ({
  ...board,
  recentActivity: activity.map(presentActivity),
});
