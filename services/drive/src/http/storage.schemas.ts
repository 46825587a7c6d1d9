import { z } from 'zod';
import { STORAGE_TIERS, USAGE_COUNTERS } from '../domain/index.js';

export const storageQuery = z.object({ tenantId: z.string().optional() });

const usageTotals = {
  bytesAdded: z.number(),
  bytesRemoved: z.number(),
  filesAdded: z.number(),
  filesRemoved: z.number(),
};

export const storageResponse = z.object({
  tenantId: z.string(),
  tier: z.enum(STORAGE_TIERS),
  tierKnown: z.boolean(),
  limit: z.number().nullable(),
  customLimit: z.number().nullable(),
  cap: z.number(),
  used: z.number(),
  fileCount: z.number(),
  remainingBytes: z.number(),
  remainingGB: z.number(),
  features: z.object({
    versioning: z.boolean(),
    advancedSharing: z.boolean(),
    analytics: z.boolean(),
    customRetention: z.boolean(),
  }),
  byType: z.object(Object.fromEntries(USAGE_COUNTERS.map((counter) => [counter, z.number()]))),
  lastUpdated: z.string().nullable(),
  dailyUsage: z.array(z.object({ day: z.string(), ...usageTotals })),
  monthlyUsage: z.array(z.object({ month: z.string(), ...usageTotals })),
});

/** POST /storage/track (drive.md §7's fallback call). */
export const trackStorageBody = z.object({
  tenantId: z.string().optional(),
  action: z.enum(['upload', 'delete']),
  size: z.number().int().min(0),
  mimeType: z.string().max(255).optional(),
  fileCountDelta: z.union([z.literal(1), z.literal(-1)]),
});

export const trackStorageResponse = z.object({ tracked: z.literal(false), reason: z.string() });

/** POST /storage/tier (super-administrators). */
export const changeTierBody = z.object({
  tenantId: z.string().optional(),
  tier: z.enum(STORAGE_TIERS),
  customLimitGB: z.number().int().min(1).max(1_000_000).optional(),
  customFeatures: z
    .object({ advancedSharing: z.boolean().optional(), analytics: z.boolean().optional() })
    .optional(),
});
