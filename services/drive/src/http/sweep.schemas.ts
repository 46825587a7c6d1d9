import { z } from 'zod';

export const sweepRequest = z.object({
  /** Every tenant of the region (system.superadmin only); otherwise the caller's tenant. */
  region: z.boolean().default(false),
});

export const sweepResponse = z.object({
  scope: z.enum(['region', 'tenant']),
  objectsScanned: z.number(),
  recordsScanned: z.number(),
  orphanObjectsRemoved: z.number(),
  recentObjectsLeft: z.number(),
  unrecognisedObjects: z.number(),
  missingObjects: z.number(),
  filesFlagged: z.number(),
  filesCleared: z.number(),
  orphanKeys: z.array(z.string()),
  missing: z.array(
    z.object({ fileId: z.string(), tenantId: z.string(), version: z.number(), key: z.string() }),
  ),
});
