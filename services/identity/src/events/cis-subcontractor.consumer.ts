import { decodeEvent, type ConsumerDefinition, type Logger } from '@workspace/kit';
import { cisEvents } from '@workspace/proto';
import { revokePortalAccess } from '../commands/portal-links.js';
import { TenantStores } from '../db/stores.js';

const ENDING_PORTAL_ACCESS = [
  'cis.subcontractor.archived',
  'cis.subcontractor.deleted',
  'cis.subcontractor.bulk.archive',
  'cis.subcontractor.bulk.delete',
  'cis.subcontractor.portal_access_ended',
] as const;

/**
 * A subcontractor cis archives, deletes or whose portal access it turns off loses portal access at once: their
 * portal sessions at every bff replica end and their unused magic links expire (cis itself refuses their portal
 * calls from the moment of the change). One group for all replicas (each event handled once).
 */
export function cisSubcontractorConsumer(groupId: string, logger: Logger): ConsumerDefinition {
  return {
    groupId,
    topics: { [cisEvents['cis.subcontractor.archived'].topic]: 'cis' },
    fromBeginning: false,
    handlers: Object.fromEntries(
      ENDING_PORTAL_ACCESS.map((type) => [
        type,
        async (event, trx) => {
          const activity = decodeEvent(cisEvents[type], event);
          const ids = [...new Set([activity.targetId, ...activity.targetIds].filter(Boolean))];
          const revoked = await revokePortalAccess(new TenantStores(trx), event.tenantId, ids);
          if (revoked.sessions + revoked.links > 0) {
            logger.info({ tenantId: event.tenantId, type, ...revoked }, 'portal access revoked (cis)');
          }
        },
      ]),
    ),
  };
}
