import { z } from 'zod';
import { scopeList } from './role-bundles.schemas.js';

export const moduleBundleParams = z.object({ bundleId: z.string().max(41) });

export const cisScopesBody = z.object({
  scopes: scopeList.refine(
    (scopes) => scopes.every((scope) => scope.startsWith('cis.')),
    'Only CIS scopes can be set here',
  ),
});

export const moduleBundleView = z.object({ id: z.string(), name: z.string(), scopes: z.array(z.string()) });

export const moduleBundlesView = z.object({ items: z.array(moduleBundleView) });
