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
  input: {
    tenantId: string;
    redirectUri: string;
    loginHint?: string | undefined;
    prompt?: 'login' | undefined;
  },
): Promise<AuthorizationRequest> {
  const tenant = await context.inTenant(input.tenantId, (stores) => requireTenant(stores, input.tenantId));
  try {
    return await context.oidc.authorize(context.idpFor(tenant), input.redirectUri, {
      loginHint: input.loginHint,
      prompt: input.prompt,
    });
  } catch (error) {
    context.logger.error({ err: error, tenantId: tenant.id }, 'IdP discovery failed');
    throw problems.unavailable('The sign-in provider is not reachable. Try again shortly.');
  }
}

/**
 * Finishes sign-in: exchanges the code at the IdP, maps the IdP subject to a user of the tenant (linking an invited
 * user on their first sign-in) and issues the access and refresh tokens. The refresh chain ends
 * `sessionLifetimeSeconds` after now when the caller's session lasts less than REFRESH_SESSION_MAX_LIFETIME_SECONDS
 * (the bff's absolute session lifetime: the chain never outlives the session it serves). The IdP's ID token is
 * handed back for the caller's RP-initiated logout; identity does not keep it.
 */
export async function completeSignIn(
  context: IdentityContext,
  input: {
    tenantId: string;
    callbackUrl: string;
    state: string;
    nonce: string;
    codeVerifier: string;
    sessionLifetimeSeconds?: number | undefined;
  },
): Promise<IssuedAccess & IssuedRefresh & { user: User; tenant: Tenant; idToken: string }> {
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
    const lifetimeSeconds = Math.min(
      context.config.REFRESH_SESSION_MAX_LIFETIME_SECONDS,
      input.sessionLifetimeSeconds ?? Number.POSITIVE_INFINITY,
    );
    const refresh = await issueRefresh(
      context,
      stores,
      tenant.id,
      user.uid,
      new Date(Date.now() + lifetimeSeconds * 1000),
    );
    return { ...session, ...refresh, user, tenant, idToken: identity.idToken };
  });
}

/**
 * Where a signed-out browser goes to end its sign-in at the tenant's IdP (RP-initiated logout), or null when the IdP
 * publishes no end_session_endpoint (the sign-out is then the product's only). 503 when the IdP's discovery fails.
 */
export async function endSessionUrl(
  context: IdentityContext,
  input: { tenantId: string; idToken?: string | undefined; postLogoutRedirectUri: string },
): Promise<string | null> {
  const tenant = await context.inTenant(input.tenantId, (stores) => requireTenant(stores, input.tenantId));
  try {
    return await context.oidc.endSessionUrl(context.idpFor(tenant), input);
  } catch (error) {
    context.logger.error({ err: error, tenantId: tenant.id }, 'IdP discovery failed');
    throw problems.unavailable('The sign-in provider is not reachable. Try again shortly.');
  }
}
