import { ApiRouter, SseHub, serveSse, type Knex, type Logger } from '@workspace/kit';
import { identityEvents } from '@workspace/proto';

/** The NOTIFY channel of identity's live updates (GET /v1/live); every replica LISTENs on it. */
export const LIVE_CHANNEL = 'identity_live';

/** The live event each recorded identity event becomes (portal links are not shown live). */
const liveEventOf: Record<string, 'tenant' | 'user' | 'whitelist' | 'roles'> = {
  [identityEvents.tenantCreated.type]: 'tenant',
  [identityEvents.tenantUpdated.type]: 'tenant',
  [identityEvents.userCreated.type]: 'user',
  [identityEvents.userUpdated.type]: 'user',
  [identityEvents.whitelistChanged.type]: 'whitelist',
  [identityEvents.roleBundleChanged.type]: 'roles',
};

/** What a subscriber learns: ids and which parts changed, never names, emails or scopes. */
export interface LiveChange {
  /** e.g. tenant: ['branding'], ['logo'], ['modules'], ['footer']; user: ['status'], ['role', 'bundleIds']. */
  changed?: string[];
}

/**
 * Sends the live notification of a recorded identity event inside its transaction: it goes out only if the change
 * commits, to every replica (PostgreSQL NOTIFY).
 */
export async function notifyLive(
  trx: Knex.Transaction,
  type: string,
  event: { tenantId: string; aggregateId: string; data?: unknown },
  change: LiveChange = {},
): Promise<void> {
  const name = liveEventOf[type];
  if (!name) return;
  const source = (event.data ?? {}) as Record<string, unknown>;
  const data: Record<string, unknown> = {};
  if (name === 'user') data.uid = event.aggregateId;
  if (name === 'roles') {
    data.bundleId = event.aggregateId;
    data.deleted = source.deleted === true;
  }
  if (name === 'whitelist') data.restricted = source.restricted === true;
  if (change.changed) data.changed = change.changed;
  await trx.raw('SELECT pg_notify(?, ?)', [
    LIVE_CHANNEL,
    JSON.stringify({ tenantId: event.tenantId, event: name, data }),
  ]);
}

/** Every replica's fan-out of identity's live notifications to the tenant's open streams. */
export class IdentityLiveHub extends SseHub {
  constructor(databaseUrl: string, logger: Logger, onChange: (tenantId: string, event: string) => void) {
    super({
      name: 'identity-live',
      databaseUrl,
      channel: LIVE_CHANNEL,
      logger,
      parse: (payload) => {
        try {
          const parsed = JSON.parse(payload) as { tenantId?: string; event?: string; data?: unknown };
          if (!parsed.tenantId || !parsed.event) return undefined;
          return { tenantId: parsed.tenantId, event: parsed.event, data: JSON.stringify(parsed.data ?? {}) };
        } catch {
          return undefined;
        }
      },
      onMessage: (message) => {
        onChange(message.tenantId, message.event);
      },
    });
  }
}

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
