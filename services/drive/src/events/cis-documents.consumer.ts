import { decodeEvent, type ConsumerDefinition, type EventHandler } from '@workspace/kit';
import { cisEvents } from '@workspace/proto';
import type { CisClient } from '../clients/cis.js';
import { fileCisDocument } from '../commands/cis-documents.js';
import type { CisDocumentKind } from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';

/** The cis events that mean a document now exists for good: a statement issued, a return submitted. */
const FILED_ON = {
  'cis.statement.sent': 'statement',
  'cis.return.submitted': 'return',
} as const satisfies Partial<Record<keyof typeof cisEvents, CisDocumentKind>>;

/**
 * Files what cis issues and submits in the CIS drive (ADR 0046). A generated or corrected statement is not filed
 * until it is issued (cis.statement.sent: it may still change before), an amendment not until it is submitted
 * (cis.return.submitted). Exactly once per event (the inbox); a handler that throws (cis or the object store down)
 * is retried with backoff by the kit, never skipped. One group for every replica.
 */
export function cisDocumentsConsumer(deps: DriveDeps, cis: CisClient): ConsumerDefinition {
  const handler =
    (type: keyof typeof FILED_ON): EventHandler =>
    async (event, trx) => {
      const activity = decodeEvent(cisEvents[type], event);
      const kind = FILED_ON[type];
      const outcome = await fileCisDocument(deps, trx, cis, event.tenantId, kind, activity.targetId);
      deps.logger.info(
        { tenantId: event.tenantId, kind, cisId: activity.targetId, outcome },
        outcome === 'not-found' ? 'cis document not found; nothing filed' : 'cis document filed',
      );
    };
  return {
    groupId: deps.config.CIS_DOCUMENTS_CONSUMER_GROUP,
    topics: { [cisEvents['cis.statement.sent'].topic]: 'cis' },
    fromBeginning: deps.config.CIS_DOCUMENTS_FROM_BEGINNING,
    handlers: {
      'cis.statement.sent': handler('cis.statement.sent'),
      'cis.return.submitted': handler('cis.return.submitted'),
    },
  };
}
