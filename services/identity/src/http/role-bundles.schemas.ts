import { z } from 'zod';
import { isKnownScope, isSystemScope } from '../domain/index.js';

/** Scopes a tenant may give: known, and not system scopes. */
export const scopeList = z
  .array(z.string())
  .max(500)
  .superRefine((scopes, ctx) => {
    for (const scope of scopes) {
      if (!isKnownScope(scope)) ctx.addIssue({ code: 'custom', message: `Unknown scope ${scope}` });
      else if (isSystemScope(scope)) ctx.addIssue({ code: 'custom', message: `${scope} is a system scope` });
    }
  });

export const roleBundleParams = z.object({
  bundleId: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,40}$/, 'Bundle id must be lowercase letters, digits, _ or -'),
});

export const roleBundleBody = z.object({ name: z.string().trim().min(1).max(80), scopes: scopeList });

export const roleBundleView = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  template: z.string().nullable(),
});

export const roleBundlesView = z.object({ items: z.array(roleBundleView) });
