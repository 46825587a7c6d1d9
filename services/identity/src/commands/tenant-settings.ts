import { identityEvents } from '@workspace/proto';
import type { IdentityContext } from '../context.js';
import type { Tenant } from '../db/tenants.store.js';
import { defaultFooter, footerAsShown, type FooterSettings } from '../domain/footer.js';
import { tenantChangedData } from '../events/identity-events.js';
import { requireTenant } from './records.js';

/** Changes the tenant's name, branding, modules or storage tier and records identity.tenant.updated. */
export function updateTenant(
  context: IdentityContext,
  tenantId: string,
  changes: Partial<Pick<Tenant, 'name' | 'branding' | 'modules' | 'storageTier'>>,
): Promise<Tenant> {
  return context.inTenant(tenantId, async (stores) => {
    await stores.tenants.updateTenant(tenantId, changes);
    const tenant = await requireTenant(stores, tenantId);
    await context.record(
      stores,
      identityEvents.tenantUpdated,
      { tenantId: tenant.id, aggregateId: tenant.id, data: tenantChangedData(tenant) },
      { changed: Object.keys(changes) },
    );
    return tenant;
  });
}

/** The tenant's footer settings, defaults filled in. */
export function tenantFooter(context: IdentityContext, tenantId: string): Promise<FooterSettings> {
  return context.inTenant(tenantId, async (stores) => {
    const tenant = await requireTenant(stores, tenantId);
    const saved = await stores.tenants.footer(tenantId);
    return footerAsShown({ ...defaultFooter(tenant.name), ...saved }, tenant.name);
  });
}

/** Saves the tenant's footer settings and records identity.tenant.updated. */
export function saveFooter(
  context: IdentityContext,
  tenantId: string,
  footer: FooterSettings,
): Promise<FooterSettings> {
  return context.inTenant(tenantId, async (stores) => {
    const tenant = await requireTenant(stores, tenantId);
    await stores.tenants.saveFooter(tenantId, { ...footer });
    await context.record(
      stores,
      identityEvents.tenantUpdated,
      { tenantId: tenant.id, aggregateId: tenant.id, data: tenantChangedData(tenant) },
      { changed: ['footer'] },
    );
    return footerAsShown(footer, tenant.name);
  });
}
