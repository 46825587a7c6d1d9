import { z } from 'zod';

export const REGIONS = ['uk', 'eu', 'us'] as const;
export const STORAGE_TIERS = ['free', 'starter', 'professional', 'enterprise', 'custom'] as const;
export const USER_STATUSES = ['active', 'busy', 'unavailable'] as const;
export const ROLES = ['admin', 'standard'] as const;

/** The spec's tenant id pattern: lowercase letters, digits, underscore, hyphen, starting with a letter or digit. */
export const tenantId = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,62}$/,
    'Tenant id must be lowercase letters, digits, _ or -, starting with a letter or digit',
  );

export const tenantModule = z.object({
  id: z.string().min(1).max(40),
  enabled: z.boolean(),
  config: z.record(z.string(), z.unknown()).default({}),
});
