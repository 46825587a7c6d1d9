import { randomUUID } from 'node:crypto';
import { HttpProblem, randomToken, sha256Hex } from '@workspace/kit';
import { identityEvents } from '@workspace/proto';
import type { IdentityContext } from '../context.js';
import type { TenantStores } from '../db/stores.js';
import { requireTenant } from './records.js';

const PORTAL_LINK_TTL_MS = 15 * 60_000;

export interface CreatedPortalLink {
  magicLink: string;
  expiresAt: Date;
  tenantName: string;
}

export interface PortalSession {
  accessToken: string;
  expiresIn: number;
  subcontractorId: string;
  tenant: { id: string; name: string };
}

/** A portal magic link for a subcontractor: 15 minutes, single use; only its hash is kept. */
export function createPortalLink(
  context: IdentityContext,
  input: { tenantId: string; subcontractorId: string; actor: string },
): Promise<CreatedPortalLink> {
  return context.inTenant(input.tenantId, async (stores) => {
    const tenant = await requireTenant(stores, input.tenantId);
    const token = randomToken();
    const linkId = randomUUID();
    const expiresAt = new Date(Date.now() + PORTAL_LINK_TTL_MS);
    await stores.portalLinks.create({
      linkId,
      tenantId: input.tenantId,
      subcontractorId: input.subcontractorId,
      tokenHash: sha256Hex(token),
      expiresAt,
      createdBy: input.actor,
    });
    await context.record(stores, identityEvents.portalLinkCreated, {
      tenantId: input.tenantId,
      aggregateId: linkId,
      data: {
        linkId,
        subcontractorId: input.subcontractorId,
        expiresAt: expiresAt.toISOString(),
        actor: input.actor,
      },
    });
    const url = new URL(context.config.PORTAL_LOGIN_URL);
    url.searchParams.set('tid', input.tenantId);
    url.searchParams.set('token', token);
    return { magicLink: url.toString(), expiresAt, tenantName: tenant.name };
  });
}

/** Redeems a magic link (once, before it expires) into a portal session limited to its subcontractor. */
export function redeemPortalLink(
  context: IdentityContext,
  input: { tenantId: string; token: string },
): Promise<PortalSession> {
  const hash = sha256Hex(input.token);
  return context.inTenant(input.tenantId, async (stores) => {
    const link = await stores.portalLinks.lockByTokenHash(hash);
    if (!link) throw new HttpProblem(404, 'link_invalid', 'This link is not valid.');
    if (link.redeemedAt) {
      throw new HttpProblem(
        410,
        'link_used',
        'This link has already been used. Ask your contractor for a new one.',
      );
    }
    if (link.expiresAt <= new Date()) {
      throw new HttpProblem(410, 'link_expired', 'This link has expired. Ask your contractor for a new one.');
    }
    await stores.portalLinks.markRedeemed(link.linkId);
    await context.record(stores, identityEvents.portalLinkRedeemed, {
      tenantId: input.tenantId,
      aggregateId: link.linkId,
      data: {
        linkId: link.linkId,
        subcontractorId: link.subcontractorId,
        expiresAt: link.expiresAt.toISOString(),
        actor: 'portal',
      },
    });
    const tenant = await requireTenant(stores, input.tenantId);
    const accessToken = await context.signer.sign({
      tenantId: tenant.id,
      subject: `portal:${link.subcontractorId}`,
      role: 'subcontractor',
      scopes: ['portal.self'],
      ttlSeconds: context.config.PORTAL_SESSION_TTL_SECONDS,
      claims: { sctr: link.subcontractorId },
    });
    return {
      accessToken,
      expiresIn: context.config.PORTAL_SESSION_TTL_SECONDS,
      subcontractorId: link.subcontractorId,
      tenant: { id: tenant.id, name: tenant.name },
    };
  });
}

/**
 * Ends subcontractors' portal access at once: deletes every portal session of theirs at every bff replica (the next
 * request with one is refused) and expires their unredeemed magic links. `stores` belong to the tenant's
 * transaction. Called by the revocation route and when cis archives or deletes the subcontractor.
 */
export async function revokePortalAccess(
  stores: TenantStores,
  tenantId: string,
  subcontractorIds: readonly string[],
): Promise<{ sessions: number; links: number }> {
  if (subcontractorIds.length === 0) return { sessions: 0, links: 0 };
  const sessions = await stores.bffSessions.deletePortalSessionsOf(tenantId, subcontractorIds);
  const links = await stores.portalLinks.expireUnredeemed(tenantId, subcontractorIds);
  return { sessions, links };
}

/** The revocation a member of staff asks for (POST /v1/portal/sessions/revoke), logged with its actor. */
export async function revokeSubcontractorPortalAccess(
  context: IdentityContext,
  input: { tenantId: string; subcontractorId: string; actor: string },
): Promise<{ sessions: number; links: number }> {
  const revoked = await context.inTenant(input.tenantId, (stores) =>
    revokePortalAccess(stores, input.tenantId, [input.subcontractorId]),
  );
  context.logger.info(
    { tenantId: input.tenantId, subcontractorId: input.subcontractorId, ...revoked, actor: input.actor },
    'portal access revoked',
  );
  return revoked;
}
