import { z } from 'zod';
import { tenantId } from '../domain/tenant.js';

/** The bff's store key: base64url of an HMAC-SHA256 of the cookie's session id (never a usable cookie value). */
const sessionKey = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'Not a session key');
const kind = z.enum(['staff', 'portal']);
/** Leases are short: long enough for one refresh at identity, short enough that a crashed holder soon frees it. */
const MAX_LEASE_MS = 60_000;

export const sessionParams = z.object({ key: sessionKey });

export const putSessionBody = z.object({
  kind,
  tenantId,
  subject: z.string().min(1).max(200),
  value: z.string().min(1).max(64_000),
  expiresAt: z.number().int().positive(),
});

export const leaseBody = z.object({ ms: z.number().int().min(0).max(MAX_LEASE_MS) });

export const sessionView = z.object({ kind, value: z.string(), expiresAt: z.number() });

export const leaseView = z.object({ acquired: z.boolean() });
