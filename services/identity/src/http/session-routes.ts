import { ApiRouter, problems, type Knex } from '@workspace/kit';
import type { Request } from 'express';
import { z } from 'zod';
import type { IdentityContext } from '../context.js';
import { tenantId } from './schemas.js';

/** The bff's store key: base64url of an HMAC-SHA256 of the cookie's session id (never a usable cookie value). */
const sessionKey = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'Not a session key');
const kind = z.enum(['staff', 'portal']);
/** Leases are short: long enough for one refresh at identity, short enough that a crashed holder soon frees it. */
const MAX_LEASE_MS = 60_000;

interface SessionRow {
  session_key: string;
  kind: 'staff' | 'portal';
  value_sealed: string;
  expires_at: Date;
}

/**
 * Ends a subcontractor's portal access at once: deletes every portal session of theirs at every bff replica (the
 * next request with one is refused) and expires their unredeemed magic links. `trx` runs with the tenant set
 * (row-level security of portal_links). Called by the revocation route and when cis archives or deletes the
 * subcontractor.
 */
export async function revokePortalAccess(
  trx: Knex.Transaction,
  tenant: string,
  subcontractorIds: readonly string[],
): Promise<{ sessions: number; links: number }> {
  if (subcontractorIds.length === 0) return { sessions: 0, links: 0 };
  const sessions = await trx('bff_sessions')
    .where({ kind: 'portal', tenant_id: tenant })
    .whereIn('subject', [...subcontractorIds])
    .del();
  const links = await trx('portal_links')
    .where({ tenant_id: tenant })
    .whereIn('subcontractor_id', [...subcontractorIds])
    .whereNull('redeemed_at')
    .where('expires_at', '>', trx.fn.now())
    .update({ expires_at: trx.fn.now() });
  return { sessions, links };
}

/**
 * The bff's session store (ADR 0025) and the signing-key operations: internal routes, called with the shared
 * internal token only. Plus the staff route that revokes a subcontractor's portal sessions.
 */
export function sessionRoutes(context: IdentityContext): ApiRouter {
  const internal = (req: Request) => {
    context.requireInternal(req);
  };
  const { db } = context;
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/internal/sessions/:key',
      summary: 'A bff session by its key, unless expired (bff only)',
      public: true,
      guard: internal,
      request: { params: z.object({ key: sessionKey }) },
      responses: {
        200: {
          description: 'The sealed session and its expiry (epoch milliseconds)',
          schema: z.object({ kind, value: z.string(), expiresAt: z.number() }),
        },
      },
      handler: async ({ params }) => {
        const row = (await db('bff_sessions')
          .where({ session_key: params.key })
          .where('expires_at', '>', db.fn.now())
          .first()) as SessionRow | undefined;
        if (!row) throw problems.notFound('No such session.');
        return { kind: row.kind, value: row.value_sealed, expiresAt: row.expires_at.getTime() };
      },
    })
    .route({
      method: 'put',
      path: '/internal/sessions/:key',
      summary: 'Create or replace a bff session; frees its refresh lease (bff only)',
      public: true,
      guard: internal,
      request: {
        params: z.object({ key: sessionKey }),
        body: z.object({
          kind,
          tenantId,
          subject: z.string().min(1).max(200),
          value: z.string().min(1).max(64_000),
          expiresAt: z.number().int().positive(),
        }),
      },
      responses: { 204: { description: 'Saved' } },
      handler: async ({ params, body }) => {
        await db('bff_sessions')
          .insert({
            session_key: params.key,
            kind: body.kind,
            tenant_id: body.tenantId,
            subject: body.subject,
            value_sealed: body.value,
            expires_at: new Date(body.expiresAt),
            lease_until: null,
          })
          .onConflict('session_key')
          .merge({
            value_sealed: body.value,
            expires_at: new Date(body.expiresAt),
            lease_until: null,
            updated_at: db.fn.now(),
          });
        return undefined;
      },
    })
    .route({
      method: 'delete',
      path: '/internal/sessions/:key',
      summary: 'Delete a bff session (bff only)',
      public: true,
      guard: internal,
      request: { params: z.object({ key: sessionKey }) },
      responses: { 204: { description: 'Deleted (or there was none)' } },
      handler: async ({ params }) => {
        await db('bff_sessions').where({ session_key: params.key }).del();
        return undefined;
      },
    })
    .route({
      method: 'post',
      path: '/internal/sessions/:key/lease',
      summary:
        'Take the session’s refresh lease (one bff replica refreshes a session at a time), or free it with ms 0 (bff only)',
      public: true,
      guard: internal,
      request: {
        params: z.object({ key: sessionKey }),
        body: z.object({ ms: z.number().int().min(0).max(MAX_LEASE_MS) }),
      },
      responses: {
        200: {
          description: 'Whether this caller holds the lease now',
          schema: z.object({ acquired: z.boolean() }),
        },
      },
      handler: async ({ params, body }) => {
        if (body.ms === 0) {
          await db('bff_sessions').where({ session_key: params.key }).update({ lease_until: null });
          return { acquired: false };
        }
        const taken = await db('bff_sessions')
          .where({ session_key: params.key })
          .where('expires_at', '>', db.fn.now())
          .where((query) => {
            void query.whereNull('lease_until').orWhere('lease_until', '<=', db.fn.now());
          })
          .update({ lease_until: db.raw(`now() + make_interval(secs => ?)`, [body.ms / 1000]) });
        return { acquired: taken === 1 };
      },
    })
    .route({
      method: 'get',
      path: '/internal/signing-keys',
      summary:
        'The signing keys: which signs, which are retired and until when they are published (operators)',
      public: true,
      guard: internal,
      responses: {
        200: {
          description: 'Newest first',
          schema: z.object({
            items: z.array(
              z.object({
                kid: z.string(),
                createdAt: z.string(),
                retiredAt: z.string().nullable(),
                publishedUntil: z.string().nullable(),
                activatesAt: z.string(),
                signing: z.boolean(),
              }),
            ),
          }),
        },
      },
      handler: async () => ({ items: await context.signer.list() }),
    })
    .route({
      method: 'post',
      path: '/internal/signing-keys/rotate',
      summary:
        'Rotate: a new key, published at once, signing after SIGNING_KEY_ACTIVATION_SECONDS (or at once with immediate: a leaked key); the others stop signing then and stay published until their tokens have expired (operators)',
      public: true,
      guard: internal,
      request: { body: z.object({ immediate: z.boolean().default(false) }) },
      responses: {
        200: {
          description: 'The new key and the keys it replaced',
          schema: z.object({ kid: z.string(), retired: z.array(z.string()) }),
        },
      },
      handler: async ({ body }) => {
        const rotated = await context.signer.rotate({ immediate: body.immediate });
        context.logger.info({ ...rotated, immediate: body.immediate }, 'signing key rotated (on request)');
        return rotated;
      },
    })
    .route({
      method: 'post',
      path: '/portal/sessions/revoke',
      summary:
        'End every portal session of a subcontractor at once and expire their unused magic links (they need a new link)',
      scopes: ['cis.portal.invite'],
      request: { body: z.object({ subcontractorId: z.string().min(1).max(64) }) },
      responses: {
        200: {
          description: 'How many sessions ended and links expired',
          schema: z.object({ revoked: z.number().int(), linksExpired: z.number().int() }),
        },
      },
      handler: async ({ ctx, body }) => {
        const revoked = await context.inTenant(ctx.tenantId, (_store, trx) =>
          revokePortalAccess(trx, ctx.tenantId, [body.subcontractorId]),
        );
        context.logger.info(
          { tenantId: ctx.tenantId, subcontractorId: body.subcontractorId, ...revoked, actor: ctx.userId },
          'portal access revoked',
        );
        return { revoked: revoked.sessions, linksExpired: revoked.links };
      },
    });
}
