import { identityEvents } from '@workspace/proto';
import { z } from 'zod';
import type { IdentityContext } from '../context.js';
import { roleTemplates, type RoleTemplateName } from '../domain/index.js';
import { REGIONS, STORAGE_TIERS, tenantId, tenantModule } from '../domain/tenant.js';
import { tenantChangedData } from '../events/identity-events.js';
import { generateUserKeys } from './user-keys.js';

/** A role bundle per role template, as every new tenant gets them. */
const templateBundles = (Object.keys(roleTemplates) as RoleTemplateName[]).map((template) => ({
  id: template,
  name: template,
  scopes: [...roleTemplates[template]],
  template,
}));

/** A tenant and its users as `make up` and the tests seed them (the demo tenant's file: deploy/local/seed). */
export const tenantSeedSchema = z.object({
  tenant: z.object({
    id: tenantId,
    name: z.string().min(1),
    region: z.enum(REGIONS).default('uk'),
    branding: z.object({ accentColor: z.string().optional() }).default({}),
    storageTier: z.enum(STORAGE_TIERS).default('free'),
    entitlements: z.array(z.string()).default([]),
    modules: z.array(tenantModule).default([]),
  }),
  /** The tenant's own bundles beside the templates' (e.g. a role that combines several abilities). */
  bundles: z
    .array(z.object({ id: z.string().min(1).max(64), name: z.string().min(1), scopes: z.array(z.string()) }))
    .default([]),
  users: z.array(
    z.object({
      uid: z.uuid(),
      email: z.email(),
      firstName: z.string(),
      lastName: z.string(),
      role: z.enum(['admin', 'standard']).default('standard'),
      bundleIds: z.array(z.string()).default([]),
    }),
  ),
});

export type TenantSeed = z.input<typeof tenantSeedSchema>;

/** The IdP subject of a seeded user: the dev IdP's account id for the same person. */
export const seededSubject = (tenant: string, email: string): string => `${tenant}:${email.toLowerCase()}`;

/**
 * Creates the tenant (with a role bundle per template) and its users when they do not exist yet; running it again
 * changes nothing. Each creation is recorded as an event, like any other change.
 */
export async function seedTenant(context: IdentityContext, input: unknown): Promise<{ created: boolean }> {
  const seed = tenantSeedSchema.parse(input);
  const { tenant } = seed;
  return context.inTenant(tenant.id, async (stores) => {
    if (await stores.tenants.tenant(tenant.id)) return { created: false };
    await stores.tenants.createTenant({ ...tenant, availableScopes: null });
    for (const bundle of templateBundles) await stores.bundles.upsertBundle(tenant.id, bundle);
    for (const bundle of seed.bundles)
      await stores.bundles.upsertBundle(tenant.id, { ...bundle, template: null });
    await context.record(stores, identityEvents.tenantCreated, {
      tenantId: tenant.id,
      aggregateId: tenant.id,
      data: tenantChangedData(tenant),
    });
    for (const user of seed.users) {
      await stores.users.createUser(
        {
          ...user,
          tenantId: tenant.id,
          displayName: `${user.firstName} ${user.lastName}`.trim(),
          username: user.email.split('@')[0] ?? null,
          status: 'active',
          themePreference: {},
          teamIds: [],
          siteIds: [],
          idpSubject: seededSubject(tenant.id, user.email),
        },
        generateUserKeys(context.cipher),
      );
      await context.record(stores, identityEvents.userCreated, {
        tenantId: tenant.id,
        aggregateId: user.uid,
        data: {
          uid: user.uid,
          role: user.role,
          status: 'active',
          bundleIds: user.bundleIds,
          changedBy: 'seed',
        },
      });
    }
    return { created: true };
  });
}
