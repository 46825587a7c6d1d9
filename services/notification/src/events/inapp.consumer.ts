import {
  decodeEvent,
  type Clock,
  type ConsumerDefinition,
  type EventHandler,
  type Logger,
} from '@workspace/kit';
import { cisEvents, driveEvents } from '@workspace/proto';
import type { IdentityClient } from '../clients/identity.js';
import { createNotifications } from '../commands/notifications.js';
import {
  fileShared,
  portalInvoiceSubmitted,
  signatureRequested,
  type NewNotification,
} from '../domain/notifications.js';

/** The scope of those told about a portal invoice: who may approve it (cis.md's invoice approval). */
export const INVOICE_APPROVE_SCOPE = 'cis.inv.approve';

export interface InAppConsumerDeps {
  clock: Clock;
  logger: Logger;
  identity: IdentityClient;
  groupId: string;
  fromBeginning: boolean;
}

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');

/**
 * In-app notifications from the domain events (ADR 0052): the modules publish what happened, this consumer decides
 * who is told. Exactly once per event (the kit's inbox, in the transaction that adds the notifications), and once
 * per thing and person besides (the source key): a repeated or second event about the same thing adds nothing. A
 * handler that throws (identity down) is retried with backoff by the kit, never skipped. One group for every replica.
 */
export function inAppConsumer(deps: InAppConsumerDeps): ConsumerDefinition {
  const make =
    (
      build: (event: Parameters<EventHandler>[0]) => Promise<NewNotification[]> | NewNotification[],
    ): EventHandler =>
    async (event, trx) => {
      const items = await build(event);
      const added = await createNotifications(trx, deps.clock, items);
      if (items.length > 0) {
        deps.logger.info(
          { tenantId: event.tenantId, type: event.type, eventId: event.id, added: added.length },
          'in-app notifications made',
        );
      }
    };

  return {
    groupId: deps.groupId,
    topics: {
      [driveEvents.SIGNATURE_REQUESTED.topic]: 'drive',
      [cisEvents['cis.invoice.created'].topic]: 'cis',
    },
    fromBeginning: deps.fromBeginning,
    handlers: {
      [driveEvents.SIGNATURE_REQUESTED.type]: make((event) => {
        const activity = decodeEvent(driveEvents.SIGNATURE_REQUESTED, event);
        return signatureRequested({
          tenantId: event.tenantId,
          taskId: activity.targetId,
          assignedToUid: activity.details.assignedToUid ?? '',
          actorId: activity.actorId,
          ...(activity.details.fileName ? { fileName: activity.details.fileName } : {}),
        });
      }),
      [driveEvents.FILE_SHARED.type]: make((event) => {
        const activity = decodeEvent(driveEvents.FILE_SHARED, event);
        const { details } = activity;
        // Share File with users names the people added; a restricted share its allowed users (sharedWith).
        const userIds = details.addedUids
          ? list(details.addedUids)
          : details.shareId && details.visibility === 'restricted'
            ? list(details.sharedWith)
            : [];
        return fileShared({
          tenantId: event.tenantId,
          fileId: activity.targetId,
          actorId: activity.actorId,
          userIds,
          ...(details.fileName ? { fileName: details.fileName } : {}),
          ...(details.shareId ? { shareId: details.shareId } : {}),
          ...(details.fileCount ? { fileCount: Number(details.fileCount) } : {}),
        });
      }),
      [cisEvents['cis.invoice.created'].type]: make(async (event) => {
        const activity = decodeEvent(cisEvents['cis.invoice.created'], event);
        if (activity.details.source !== 'portal') return [];
        const approvers = await deps.identity.scopeHolders(event.tenantId, INVOICE_APPROVE_SCOPE);
        return portalInvoiceSubmitted({
          tenantId: event.tenantId,
          invoiceId: activity.targetId,
          approvers,
          ...(activity.details.invoiceNumber ? { invoiceNumber: activity.details.invoiceNumber } : {}),
        });
      }),
    },
  };
}
