import type { z } from 'zod';
import type { Tenant } from '../db/tenants.store.js';
import type { User } from '../db/users.store.js';
import type { signedInView } from './auth.schemas.js';
import { presentTenant } from './tenant.present.js';
import { presentUser } from './users.present.js';

type Tokens = Omit<z.input<typeof signedInView>, 'user' | 'tenant'>;

export const presentSignedIn = ({
  user,
  tenant,
  ...tokens
}: Tokens & { user: User; tenant: Tenant }): z.input<typeof signedInView> => ({
  ...tokens,
  user: presentUser(user),
  tenant: presentTenant(tenant),
});
