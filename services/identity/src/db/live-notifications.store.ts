import type { Knex } from '@workspace/kit';

/** The NOTIFY channel of identity's live updates (GET /v1/live); every replica LISTENs on it. */
export const LIVE_CHANNEL = 'identity_live';

/** identity's live notifications: PostgreSQL NOTIFY inside a change's transaction (sent only if it commits). */
export class LiveNotificationStore {
  constructor(private readonly trx: Knex.Transaction) {}

  async notify(payload: { tenantId: string; event: string; data: Record<string, unknown> }): Promise<void> {
    await this.trx.raw('SELECT pg_notify(?, ?)', [LIVE_CHANNEL, JSON.stringify(payload)]);
  }
}
