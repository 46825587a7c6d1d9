import { z } from 'zod';
import { tenantView } from './tenant.schemas.js';
import { themePreference, userView } from './users.schemas.js';

export const profileView = z.object({ user: userView, tenant: tenantView });

export const updateMeBody = z.object({
  status: z.enum(['active', 'busy', 'unavailable']).optional(),
  themePreference: themePreference.optional(),
});

export const effectiveScopesView = z.object({ granted: z.array(z.string()) });
