import type { z } from 'zod';
import type { RoleBundle } from '../db/role-bundles.store.js';
import type { roleBundleView } from './role-bundles.schemas.js';

export const presentRoleBundle = (bundle: RoleBundle): z.input<typeof roleBundleView> => ({
  id: bundle.id,
  name: bundle.name,
  scopes: bundle.scopes,
  template: bundle.template,
});
