import { z } from 'zod';

/**
 * The tenantId the spec's payloads and queries carry (drive.md §7): optional, and when given it must be the caller's
 * own (commands/access.ts requireOwnTenant answers 404 otherwise).
 */
export const tenantId = z.string().min(1).max(100).optional();

export const tenantQuery = z.object({ tenantId });
