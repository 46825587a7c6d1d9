import { z } from 'zod';
import { scopeList } from './role-bundles.schemas.js';

export const availableScopesView = z.object({ scopes: z.array(z.string()), restricted: z.boolean() });

export const availableScopesBody = z.object({ scopes: scopeList.nullable() });
