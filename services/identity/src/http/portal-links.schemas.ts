import { z } from 'zod';
import { tenantId } from '../domain/tenant.js';

export const subcontractorBody = z.object({ subcontractorId: z.string().min(1).max(64) });

export const portalLinkView = z.object({
  magicLink: z.string(),
  expiresAt: z.string(),
  expiresIn: z.string(),
  tenantName: z.string(),
});

export const redeemBody = z.object({ tenantId, token: z.string().min(20).max(100) });

export const portalSessionView = z.object({
  accessToken: z.string(),
  expiresIn: z.number().int(),
  subcontractorId: z.string(),
  tenant: z.object({ id: z.string(), name: z.string() }),
});

export const revokedView = z.object({ revoked: z.number().int(), linksExpired: z.number().int() });

/** A subcontractor's request for a fresh sign-in link (from the bff, which rate limits it). */
export const linkRequestBody = z.object({
  tenantId,
  email: z.email('Enter a valid email address').max(254),
});

export const linkRequestView = z.object({ accepted: z.literal(true) });
