import { SseHub, type Logger } from '@workspace/kit';
import { LIVE_CHANNEL } from '../db/live-notifications.store.js';

/**
 * Every replica's fan-out of identity's live notifications (LISTEN on the channel every change NOTIFYs) to the
 * tenant's open streams of GET /v1/live; `onChange` hears each notification too.
 */
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
