import type { Knex } from '@workspace/kit';
import { PortalLinkStore } from './portal-links.store.js';
import { RefreshSessionStore } from './refresh-sessions.store.js';

/**
 * Deletes expired refresh sessions and portal links of every tenant, in one transaction whose `app.cleanup` setting
 * makes the tables' clean-up policies show it those rows (and only them). Takes `Knex`: it works across tenants.
 */
export function deleteExpiredTenantRows(db: Knex): Promise<{ refreshSessions: number; portalLinks: number }> {
  return db.transaction(async (trx) => {
    await trx.raw("SELECT set_config('app.cleanup', 'on', true)");
    const refreshSessions = await new RefreshSessionStore(trx).deleteExpired();
    const portalLinks = await new PortalLinkStore(trx).deleteExpired();
    return { refreshSessions, portalLinks };
  });
}
