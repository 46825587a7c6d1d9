import { problems } from '@workspace/kit';
import type { TenantStores } from '../db/stores.js';
import type { Tenant } from '../db/tenants.store.js';
import type { User } from '../db/users.store.js';

/** The tenant, or the spec's 404. */
export async function requireTenant(stores: TenantStores, id: string): Promise<Tenant> {
  const tenant = await stores.tenants.tenant(id);
  if (!tenant) throw problems.notFound('Tenant not found.');
  return tenant;
}

/** The user, or the spec's 404. */
export async function requireUser(stores: TenantStores, uid: string): Promise<User> {
  const user = await stores.users.user(uid);
  if (!user) throw problems.notFound('User not found.');
  return user;
}
