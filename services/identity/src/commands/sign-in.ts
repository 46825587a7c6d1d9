import { problems } from '@workspace/kit';
import type { AuthorizationRequest } from '../clients/oidc.js';
import type { IdentityContext } from '../context.js';
import type { Tenant } from '../db/tenants.store.js';
import type { User } from '../db/users.store.js';
import { requireTenant } from './records.js';
import { issueAccess, issueRefresh, type IssuedAccess, type IssuedRefresh } from './sessions.js';

/** Starts sign-in at the tenant's IdP: the authorization URL with PKCE, state and nonce. */
export async function startSignIn(
  context: IdentityContext,
  input: { tenantId: string; redirectUri: string; loginHint?: string | undefined },
): Promise<AuthorizationRequest> {
  const tenant = await context.inTenant(input.tenantId, (stores) => requireTenant(stores, input.tenantId));
  try {
    return await context.oidc.authorize(context.idpFor(tenant), input.redirectUri, input.loginHint);
  } catch (error) {
    context.logger.error({ err: error, tenantId: tenant.id }, 'IdP discovery failed');
    throw problems.unavailable('The sign-in provider is not reachable. Try again shortly.');
  }
}

/**
 * Finishes sign-in: exchanges the code at the IdP, maps the IdP subject to a user of the tenant (linking an invited
 * user on their first sign-in) and issues the access and refresh tokens.
 */
export async function completeSignIn(
  context: IdentityContext,
  input: { tenantId: string; callbackUrl: string; state: string; nonce: string; codeVerifier: string },
): Promise<IssuedAccess & IssuedRefresh & { user: User; tenant: Tenant }> {
  const tenant = await context.inTenant(input.tenantId, (stores) => requireTenant(stores, input.tenantId));
  let identity;
  try {
    identity = await context.oidc.complete(context.idpFor(tenant), input.callbackUrl, input);
  } catch (error) {
    context.logger.warn({ err: error, tenantId: tenant.id }, 'sign-in callback rejected');
    throw problems.unauthorized('Sign-in could not be completed. Please try again.');
  }
  return context.inTenant(tenant.id, async (stores) => {
    const user = await stores.users.userBySubjectOrEmail(identity.subject, identity.email);
    if (!user) throw problems.forbidden('Your account is not set up for this organisation.');
    const session = await issueAccess(context, stores, tenant, user);
    const refresh = await issueRefresh(context, stores, tenant.id, user.uid);
    return { ...session, ...refresh, user, tenant };
  });
}
