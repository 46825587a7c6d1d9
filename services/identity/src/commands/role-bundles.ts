import { problems } from '@workspace/kit';
import { identityEvents } from '@workspace/proto';
import type { IdentityContext } from '../context.js';
import type { RoleBundle } from '../db/role-bundles.store.js';
import {
  allScopes,
  cannotGrant,
  firstUnheldGrant,
  isSystemScope,
  roleBundleRefusal,
  type Grantor,
} from '../domain/index.js';
import { requireTenant } from './records.js';

const isCisScope = (scope: string) => scope.startsWith('cis.');

/** Every role bundle with only its CIS scopes (the CIS settings Role Permissions checklist). */
export async function cisRoleBundles(context: IdentityContext, tenantId: string): Promise<RoleBundle[]> {
  const bundles = await context.inTenant(tenantId, (stores) => stores.bundles.bundles());
  return bundles.map((bundle) => ({ ...bundle, scopes: bundle.scopes.filter(isCisScope) }));
}

/**
 * Creates or replaces a role bundle; the caller grants only scopes they hold, and only an administrator changes the
 * admin bundle (domain/grants.ts). The tenant's cached scopes are dropped at once.
 */
export async function saveRoleBundle(
  context: IdentityContext,
  input: { tenantId: string; bundleId: string; name: string; scopes: string[]; actor: Grantor },
): Promise<void> {
  await context.inTenant(input.tenantId, async (stores) => {
    const current = (await stores.bundles.bundles()).find((bundle) => bundle.id === input.bundleId);
    const refusal = roleBundleRefusal({
      grantor: input.actor,
      bundleId: input.bundleId,
      requested: input.scopes,
      current: current?.scopes ?? [],
    });
    if (refusal) throw problems.forbidden(refusal);
    await stores.bundles.upsertBundle(input.tenantId, {
      id: input.bundleId,
      name: input.name,
      scopes: input.scopes,
      template: null,
    });
    await context.record(stores, identityEvents.roleBundleChanged, {
      tenantId: input.tenantId,
      aggregateId: input.bundleId,
      data: { bundleId: input.bundleId, scopes: input.scopes, deleted: false, changedBy: input.actor.userId },
    });
  });
  context.scopeCache.invalidateTenant(input.tenantId);
}

/**
 * Replaces the CIS scopes of a role bundle, keeping its other scopes; a caller can only grant CIS scopes they hold
 * (domain/grants.ts). The tenant's cached scopes are dropped at once.
 */
export async function saveCisRoleBundle(
  context: IdentityContext,
  input: { tenantId: string; bundleId: string; scopes: string[]; actor: Grantor },
): Promise<void> {
  await context.inTenant(input.tenantId, async (stores) => {
    const bundle = (await stores.bundles.bundles()).find((candidate) => candidate.id === input.bundleId);
    if (!bundle) throw problems.notFound('Role bundle not found.');
    const raised = firstUnheldGrant(input.actor, input.scopes, bundle.scopes.filter(isCisScope));
    if (raised) throw problems.forbidden(cannotGrant(raised));
    const scopes = [...bundle.scopes.filter((scope) => !isCisScope(scope)), ...new Set(input.scopes)];
    await stores.bundles.upsertBundle(input.tenantId, { ...bundle, scopes });
    await context.record(stores, identityEvents.roleBundleChanged, {
      tenantId: input.tenantId,
      aggregateId: bundle.id,
      data: { bundleId: bundle.id, scopes, deleted: false, changedBy: input.actor.userId },
    });
  });
  context.scopeCache.invalidateTenant(input.tenantId);
}

/** The tenant's permission whitelist: the scopes it lists, or every non-system scope when it is not restricted. */
export function availableScopes(
  context: IdentityContext,
  tenantId: string,
): Promise<{ scopes: string[]; restricted: boolean }> {
  return context.inTenant(tenantId, async (stores) => {
    const tenant = await requireTenant(stores, tenantId);
    return tenant.availableScopes
      ? { scopes: tenant.availableScopes, restricted: true }
      : { scopes: allScopes.filter((scope) => !isSystemScope(scope)), restricted: false };
  });
}

/**
 * Replaces the permission whitelist (null lifts it); the caller makes available only scopes they hold (lifting it
 * makes every tenant scope available). The tenant's cached scopes are dropped at once.
 */
export async function setAvailableScopes(
  context: IdentityContext,
  input: { tenantId: string; scopes: string[] | null; actor: Grantor },
): Promise<void> {
  await context.inTenant(input.tenantId, async (stores) => {
    const tenant = await requireTenant(stores, input.tenantId);
    const everyTenantScope = allScopes.filter((scope) => !isSystemScope(scope));
    const raised = firstUnheldGrant(
      input.actor,
      input.scopes ?? everyTenantScope,
      tenant.availableScopes ?? everyTenantScope,
    );
    if (raised) throw problems.forbidden(cannotGrant(raised));
    await stores.tenants.setAvailableScopes(input.tenantId, input.scopes);
    await context.record(stores, identityEvents.whitelistChanged, {
      tenantId: input.tenantId,
      aggregateId: input.tenantId,
      data: {
        availableScopes: input.scopes ?? [],
        changedBy: input.actor.userId,
        restricted: input.scopes !== null,
      },
    });
  });
  context.scopeCache.invalidateTenant(input.tenantId);
}
