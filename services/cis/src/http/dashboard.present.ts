import type { z } from 'zod';
import type { dashboard } from '../commands/dashboard.js';
import type { ActivityRecord } from '../db/activity.store.js';
import type { activityEntry, dashboardResponse } from './dashboard.schemas.js';
import { timestamp } from './http-helpers.js';

export const presentActivity = (row: ActivityRecord): z.input<typeof activityEntry> => ({
  id: String(row.id),
  action: row.action,
  targetType: row.targetType,
  targetId: row.targetId,
  summary: row.summary,
  details: row.details,
  performedBy: row.performedBy,
  performedAt: timestamp(row.performedAt),
});

export const presentDashboard = ({
  activity,
  ...board
}: Awaited<ReturnType<typeof dashboard>>): z.input<typeof dashboardResponse> => ({
  ...board,
  recentActivity: activity.map(presentActivity),
});
