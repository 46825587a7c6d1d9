import { createHash } from 'node:crypto';
import { problems } from '@workspace/kit';
import { identityEvents } from '@workspace/proto';
import type { IdentityContext } from '../context.js';
import type { TenantStores } from '../db/stores.js';
import type { Tenant } from '../db/tenants.store.js';
import type { NewTenantLogo, TenantLogo } from '../db/tenant-logos.store.js';
import {
  LOGO_IMAGE_MAX_BYTES,
  LOGO_IMAGE_TOO_LARGE,
  LOGO_IMAGE_WRONG_TYPE,
  logoImageType,
} from '../domain/logo.js';
import { tenantChangedData } from '../events/identity-events.js';
import { requireTenant } from './records.js';

export type LogoInput = { kind: 'text'; text: string } | { kind: 'image'; data: string };

/** The logo to save: a text logo, or an image checked by its content (never its name) and its size. */
function logoToSave(input: LogoInput): NewTenantLogo {
  if (input.kind === 'text') return { kind: 'text', text: input.text };
  const image = Buffer.from(input.data, 'base64');
  if (image.length > LOGO_IMAGE_MAX_BYTES) {
    throw problems.validation([{ field: 'body.data', message: LOGO_IMAGE_TOO_LARGE }]);
  }
  const contentType = logoImageType(image);
  if (!contentType) throw problems.validation([{ field: 'body.data', message: LOGO_IMAGE_WRONG_TYPE }]);
  return { kind: 'image', contentType, image, sha256: createHash('sha256').update(image).digest('hex') };
}

async function recordLogoChange(context: IdentityContext, stores: TenantStores, tenant: Tenant) {
  await context.record(
    stores,
    identityEvents.tenantUpdated,
    { tenantId: tenant.id, aggregateId: tenant.id, data: tenantChangedData(tenant) },
    { changed: ['logo'] },
  );
}

/** Sets the tenant's logo and records identity.tenant.updated; answers the logo as saved (without its bytes). */
export function setTenantLogo(
  context: IdentityContext,
  input: { tenantId: string; logo: LogoInput; actor: string },
): Promise<TenantLogo | undefined> {
  const logo = logoToSave(input.logo);
  return context.inTenant(input.tenantId, async (stores) => {
    const tenant = await requireTenant(stores, input.tenantId);
    await stores.logos.saveLogo(input.tenantId, logo, input.actor);
    await recordLogoChange(context, stores, tenant);
    return stores.logos.logo(input.tenantId, { withImage: false });
  });
}

/** Removes the tenant's logo; identity.tenant.updated is recorded only when there was one. */
export async function deleteTenantLogo(context: IdentityContext, tenantId: string): Promise<void> {
  await context.inTenant(tenantId, async (stores) => {
    const tenant = await requireTenant(stores, tenantId);
    if (await stores.logos.deleteLogo(tenantId)) await recordLogoChange(context, stores, tenant);
  });
}
