import { ApiRouter, problems } from '@workspace/kit';
import type { IdentityContext } from '../context.js';
import { BffSessionStore } from '../db/bff-sessions.store.js';
import { internalOnly } from './internal.js';
import { presentSession } from './sessions.present.js';
import { leaseBody, leaseView, putSessionBody, sessionParams, sessionView } from './sessions.schemas.js';

/** The bff's session store (ADR 0025): internal routes, called with the shared internal token only. */
export function sessionsRoutes(context: IdentityContext): ApiRouter {
  const guard = internalOnly(context.config.INTERNAL_API_TOKEN);
  const sessions = new BffSessionStore(context.db);
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/internal/sessions/:key',
      summary: 'A bff session by its key, unless expired (bff only)',
      public: true,
      guard,
      request: { params: sessionParams },
      responses: {
        200: { description: 'The sealed session and its expiry (epoch milliseconds)', schema: sessionView },
      },
      handler: async ({ params }) => {
        const session = await sessions.session(params.key);
        if (!session) throw problems.notFound('No such session.');
        return presentSession(session);
      },
    })
    .route({
      method: 'put',
      path: '/internal/sessions/:key',
      summary: 'Create or replace a bff session; frees its refresh lease (bff only)',
      public: true,
      guard,
      request: { params: sessionParams, body: putSessionBody },
      responses: { 204: { description: 'Saved' } },
      handler: async ({ params, body }) => {
        const { value, expiresAt, ...owner } = body;
        await sessions.put(params.key, { ...owner, valueSealed: value, expiresAt: new Date(expiresAt) });
        return undefined;
      },
    })
    .route({
      method: 'delete',
      path: '/internal/sessions/:key',
      summary: 'Delete a bff session (bff only)',
      public: true,
      guard,
      request: { params: sessionParams },
      responses: { 204: { description: 'Deleted (or there was none)' } },
      handler: async ({ params }) => {
        await sessions.delete(params.key);
        return undefined;
      },
    })
    .route({
      method: 'post',
      path: '/internal/sessions/:key/lease',
      summary:
        'Take the session’s refresh lease (one bff replica refreshes a session at a time), or free it with ms 0 (bff only)',
      public: true,
      guard,
      request: { params: sessionParams, body: leaseBody },
      responses: { 200: { description: 'Whether this caller holds the lease now', schema: leaseView } },
      handler: async ({ params, body }) => {
        if (body.ms > 0) return { acquired: await sessions.takeLease(params.key, body.ms) };
        await sessions.freeLease(params.key);
        return { acquired: false };
      },
    });
}
