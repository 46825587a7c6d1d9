import { randomUUID } from 'node:crypto';
import { problems, randomToken, sha256Hex } from '@workspace/kit';
import type { IdentityContext } from '../context.js';
import type { TenantStores } from '../db/stores.js';
import type { Tenant } from '../db/tenants.store.js';
import type { User } from '../db/users.store.js';
import { tenantId as tenantIdSchema } from '../domain/tenant.js';
import { effectiveScopes } from './effective-scopes.js';
import { requireTenant, requireUser } from './records.js';

export interface IssuedAccess {
  accessToken: string;
  expiresIn: number;
  scopes: string[];
}

export interface IssuedRefresh {
  refreshToken: string;
  refreshExpiresIn: number;
}

/** An access token carrying the user's current effective scopes. */
export async function issueAccess(
  context: IdentityContext,
  stores: TenantStores,
  tenant: Tenant,
  user: User,
): Promise<IssuedAccess> {
  const scopes = await effectiveScopes(context.scopeCache, stores, tenant, user);
  const accessToken = await context.signer.sign({
    tenantId: tenant.id,
    subject: user.uid,
    role: user.role,
    scopes,
    ttlSeconds: context.config.ACCESS_TOKEN_TTL_SECONDS,
  });
  return { accessToken, expiresIn: context.config.ACCESS_TOKEN_TTL_SECONDS, scopes };
}

/**
 * A new refresh token, valid REFRESH_TOKEN_TTL_SECONDS but never past the chain's absolute end (a sign-in starts a
 * chain ending REFRESH_SESSION_MAX_LIFETIME_SECONDS later; each rotation keeps that end).
 */
export async function issueRefresh(
  context: IdentityContext,
  stores: TenantStores,
  tenantId: string,
  uid: string,
  chainEnd = new Date(Date.now() + context.config.REFRESH_SESSION_MAX_LIFETIME_SECONDS * 1000),
): Promise<IssuedRefresh> {
  const refreshToken = `${tenantId}.${randomToken()}`;
  const expiresAt = new Date(
    Math.min(Date.now() + context.config.REFRESH_TOKEN_TTL_SECONDS * 1000, chainEnd.getTime()),
  );
  await stores.refreshSessions.create({
    sessionId: randomUUID(),
    tenantId,
    uid,
    tokenHash: sha256Hex(refreshToken),
    expiresAt,
    absoluteExpiresAt: chainEnd,
  });
  return {
    refreshToken,
    refreshExpiresIn: Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000)),
  };
}

/** The tenant a refresh token belongs to (its prefix), or 401 when it names none. */
function tenantOfRefreshToken(token: string): string {
  const tenant = token.split('.')[0] ?? '';
  if (!tenantIdSchema.safeParse(tenant).success) throw problems.unauthorized('The session is not valid.');
  return tenant;
}

/**
 * Rotates a refresh token: the old one is revoked and a new access and refresh token issued (the chain's absolute
 * end kept). A rotated token used again means someone holds a copy: every session of the user ends.
 */
export async function refreshSession(
  context: IdentityContext,
  refreshToken: string,
): Promise<IssuedAccess & IssuedRefresh> {
  const tenant = tenantOfRefreshToken(refreshToken);
  const hash = sha256Hex(refreshToken);
  // A refusal is returned, not thrown, so the revocations of a reused token commit.
  const outcome = await context.inTenant(tenant, async (stores) => {
    const session = await stores.refreshSessions.lockByTokenHash(hash);
    // Unknown, expired, or past the chain's absolute lifetime (however regularly it was used).
    if (!session || session.expiresAt <= new Date() || session.absoluteExpiresAt <= new Date())
      return { error: 'The session has expired. Please sign in again.' };
    if (session.revokedAt) {
      await endEverySessionOf(stores, tenant, session.uid);
      context.logger.warn(
        { tenantId: tenant, userId: session.uid },
        'a rotated refresh token was used again: every session of the user ended',
      );
      return { error: 'The session is no longer valid. Please sign in again.' };
    }
    await stores.refreshSessions.revoke(session.sessionId);
    const tenantRecord = await requireTenant(stores, tenant);
    const user = await requireUser(stores, session.uid);
    const issued = await issueAccess(context, stores, tenantRecord, user);
    const refresh = await issueRefresh(context, stores, tenant, user.uid, session.absoluteExpiresAt);
    return { value: { ...issued, ...refresh } };
  });
  if ('error' in outcome) throw problems.unauthorized(outcome.error);
  return outcome.value;
}

/** Ends every session of a user: each refresh token revoked, and their browser sessions at every bff replica. */
async function endEverySessionOf(stores: TenantStores, tenantId: string, uid: string): Promise<void> {
  await stores.refreshSessions.revokeEveryOfUser(uid);
  // ADR 0025: the bff's staff sessions live here, so one delete ends them at every replica.
  await stores.bffSessions.deleteStaffSessionsOf(tenantId, uid);
}

/**
 * "Sign out of all sessions" (ASVS 3.3.4): every session of the refresh token's user ends, this one included, as on
 * the reuse of a rotated token. The token names the user (it may already be revoked or expired: its owner may still
 * end the others); an unknown token is refused.
 */
export async function logoutEverywhere(context: IdentityContext, refreshToken: string): Promise<void> {
  const tenant = tenantOfRefreshToken(refreshToken);
  const uid = await context.inTenant(tenant, async (stores) => {
    const session = await stores.refreshSessions.lockByTokenHash(sha256Hex(refreshToken));
    if (!session) return undefined;
    await endEverySessionOf(stores, tenant, session.uid);
    return session.uid;
  });
  if (!uid) throw problems.unauthorized('The session is not valid.');
  context.logger.info({ tenantId: tenant, userId: uid }, 'signed out of all sessions');
}

/** Ends a session: its refresh token is revoked. */
export async function logout(context: IdentityContext, refreshToken: string): Promise<void> {
  const tenant = tenantOfRefreshToken(refreshToken);
  await context.inTenant(tenant, (stores) =>
    stores.refreshSessions.revokeByTokenHash(sha256Hex(refreshToken)),
  );
}
