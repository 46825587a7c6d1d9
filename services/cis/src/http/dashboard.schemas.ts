import { z } from 'zod';
import { looseObject } from './common.schemas.js';

export const analyticsQuery = z.object({ months: z.coerce.number().int().min(1).max(36).default(12) });

export const activityQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(20) });

export const dashboardResponse = looseObject;

export const analyticsResponse = looseObject;

export const activityResponse = z.object({ items: z.array(looseObject) });
