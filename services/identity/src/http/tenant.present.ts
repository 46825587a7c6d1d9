import type { z } from 'zod';
import type { Tenant } from '../db/tenants.store.js';
import type { FooterSettings } from '../domain/footer.js';
import type { footerSettings, tenantView } from './tenant.schemas.js';

export const presentTenant = (tenant: Tenant): z.input<typeof tenantView> => ({
  id: tenant.id,
  name: tenant.name,
  region: tenant.region,
  branding: tenant.branding,
  modules: tenant.modules,
  storageTier: tenant.storageTier,
  entitlements: tenant.entitlements,
});

/** The footer settings as answered (the domain's type and the schema's agree field for field). */
export const presentFooter = (footer: FooterSettings): z.input<typeof footerSettings> => footer;
