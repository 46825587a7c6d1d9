import type { z } from 'zod';
import type { RoleBundle } from '../db/role-bundles.store.js';
import type { moduleBundleView } from './module-role-bundles.schemas.js';

export const presentModuleBundle = (bundle: RoleBundle): z.input<typeof moduleBundleView> => ({
  id: bundle.id,
  name: bundle.name,
  scopes: bundle.scopes,
});
