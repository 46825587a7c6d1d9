import { ApiRouter, serveSse, type SseHub } from '@workspace/kit';

/** GET /v1/live: the caller's tenant's live updates (Server-Sent Events). */
export function liveRoutes(hub: SseHub): ApiRouter {
  return new ApiRouter().route({
    method: 'get',
    path: '/live',
    summary:
      'Server-Sent Events of the caller’s tenant: `tenant` (branding, logo, modules, footer, name), `user` (status, role, bundles), `whitelist`, `roles`; ids and what changed only; heartbeat every 25 s',
    responses: { 200: { description: 'text/event-stream' } },
    handler: ({ ctx, req, res }) => serveSse(hub, ctx.tenantId, req, res),
  });
}
