import type { DescMessage } from '@bufbuild/protobuf';
import {
  PortalLinkChangedSchema,
  RoleBundleChangedSchema,
  TenantChangedSchema,
  UserChangedSchema,
  WhitelistChangedSchema,
} from '../gen/workspace/identity/v1/events_pb.js';
import { LedgerEntryRecordedSchema } from '../gen/workspace/testing/v1/ledger_pb.js';
import { CisActivitySchema, CisDeadlineAlertedSchema } from '../gen/workspace/cis/v1/events_pb.js';

export * from '../gen/workspace/identity/v1/events_pb.js';
export * from '../gen/workspace/testing/v1/ledger_pb.js';
export * from '../gen/workspace/cis/v1/events_pb.js';

/** Services that publish domain events, each to its own `<service>.events.v1` topic. */
export const eventServices = [
  'cis',
  'drive',
  'schedule',
  'notes',
  'audit',
  'identity',
  'notification',
] as const;
export type EventService = (typeof eventServices)[number];

export const domainTopic = (service: string): string => `${service}.events.v1`;

/** The normalised, hash-chained audit stream auditors consume. */
export const AUDIT_TOPIC = 'audit.v1';

export const allTopics = [...eventServices.map(domainTopic), AUDIT_TOPIC];

/** One event type: its CloudEvents `type`, the topic it goes to and the protobuf message that is its data. */
export interface EventDefinition<Schema extends DescMessage = DescMessage> {
  type: string;
  topic: string;
  schema: Schema;
}

export function defineEvent<Schema extends DescMessage>(
  type: string,
  topic: string,
  schema: Schema,
): EventDefinition<Schema> {
  if (!/^[a-z]+(\.[a-z_]+)+$/.test(type)) throw new Error(`Event type '${type}' is not dotted lower case`);
  return { type, topic, schema };
}

/** Contracts used by the platform's own tests and benchmarks. */
export const testingEvents = {
  ledgerEntryRecorded: defineEvent(
    'testing.ledger.entry_recorded',
    'testing.events.v1',
    LedgerEntryRecordedSchema,
  ),
};

const IDENTITY_TOPIC = domainTopic('identity');

export const identityEvents = {
  tenantCreated: defineEvent('identity.tenant.created', IDENTITY_TOPIC, TenantChangedSchema),
  tenantUpdated: defineEvent('identity.tenant.updated', IDENTITY_TOPIC, TenantChangedSchema),
  userCreated: defineEvent('identity.user.created', IDENTITY_TOPIC, UserChangedSchema),
  userUpdated: defineEvent('identity.user.updated', IDENTITY_TOPIC, UserChangedSchema),
  roleBundleChanged: defineEvent('identity.role_bundle.changed', IDENTITY_TOPIC, RoleBundleChangedSchema),
  whitelistChanged: defineEvent('identity.whitelist.changed', IDENTITY_TOPIC, WhitelistChangedSchema),
  portalLinkCreated: defineEvent('identity.portal_link.created', IDENTITY_TOPIC, PortalLinkChangedSchema),
  portalLinkRedeemed: defineEvent('identity.portal_link.redeemed', IDENTITY_TOPIC, PortalLinkChangedSchema),
};

const CIS_TOPIC = domainTopic('cis');

/**
 * The audit actions of cis.md section 7, each its own CloudEvents type on cis.events.v1, and three more for reads
 * of identifiers in clear (ADR 0029): cis.pii.unmasked, cis.statement.downloaded, cis.return.downloaded.
 */
export const cisAuditActions = [
  'cis.subcontractor.created',
  'cis.subcontractor.updated',
  'cis.subcontractor.verified',
  'cis.subcontractor.archived',
  'cis.subcontractor.deleted',
  'cis.subcontractor.invited',
  'cis.pii.unmasked',
  // Not in cis.md: an edit that ends a subcontractor's portal access (portal access off, or archived by the edit);
  // identity ends their portal sessions and links, as for archived and deleted.
  'cis.subcontractor.portal_access_ended',
  // Not in cis.md: a duplicate merged into the record kept (issue 13, ADR 0039).
  'cis.subcontractor.merged',
  'cis.invoice.created',
  'cis.invoice.updated',
  'cis.invoice.approved',
  'cis.invoice.rejected',
  'cis.invoice.paid',
  'cis.invoice.cancelled',
  // Not in cis.md (issue 13, ADR 0037): a paid invoice's payment date corrected, with the old and the new date.
  'cis.invoice.payment_date_corrected',
  'cis.invoice.bulk.approve',
  'cis.invoice.bulk.pay',
  'cis.invoice.bulk.delete',
  'cis.subcontractor.bulk.archive',
  'cis.subcontractor.bulk.delete',
  'cis.subcontractor.bulk.verify',
  'cis.statement.generated',
  'cis.statement.bulk.generate',
  'cis.statement.sent',
  // Not in cis.md (issue 13, ADR 0037): a corrected statement made for an issued one whose month changed.
  'cis.statement.corrected',
  'cis.statement.downloaded',
  'cis.return.compiled',
  'cis.return.submitted',
  'cis.return.amended',
  'cis.return.unlocked',
  'cis.return.exported',
  'cis.return.downloaded',
  // Issue 13: a tax month marked as needing no return here (filed elsewhere, before the product, inactivity), or cleared.
  'cis.return.period_marked',
  'cis.return.period_unmarked',
  'cis.settings.updated',
  'cis.module.activated',
  'cis.module.deactivated',
  'cis.import.invoices',
  'cis.export.invoices',
  'cis.export.subcontractors',
  'cis.export.return',
  'cis.error',
  'cis.permission.denied',
] as const;
export type CisAuditAction = (typeof cisAuditActions)[number];

export const cisEvents = Object.fromEntries(
  cisAuditActions.map((action) => [action, defineEvent(action, CIS_TOPIC, CisActivitySchema)]),
) as Record<CisAuditAction, EventDefinition<typeof CisActivitySchema>>;

/**
 * cis's notices that are not audit actions of a person: a deadline of the tenant's CIS calendar due soon or overdue,
 * published once per tax month, deadline and state by cis's daily deadline scan (docs/cis.md, docs/notifications.md).
 */
export const cisNoticeEvents = {
  deadlineAlerted: defineEvent('cis.deadline.alerted', CIS_TOPIC, CisDeadlineAlertedSchema),
};

export * from '../gen/workspace/notification/v1/events_pb.js';
import {
  EmailFailedSchema,
  EmailResentSchema,
  EmailSentSchema,
} from '../gen/workspace/notification/v1/events_pb.js';

const NOTIFICATION_TOPIC = domainTopic('notification');

/** What became of an e-mail the notification service was asked to send (never its content or addresses). */
export const notificationEvents = {
  emailSent: defineEvent('notification.email.sent', NOTIFICATION_TOPIC, EmailSentSchema),
  emailFailed: defineEvent('notification.email.failed', NOTIFICATION_TOPIC, EmailFailedSchema),
  emailResent: defineEvent('notification.email.resent', NOTIFICATION_TOPIC, EmailResentSchema),
};

export * from '../gen/workspace/drive/v1/events_pb.js';
import { DriveActivitySchema } from '../gen/workspace/drive/v1/events_pb.js';

const DRIVE_TOPIC = domainTopic('drive');

/**
 * The audit actions of drive.md §7 and the drive's own (drives, libraries, versions, storage, CIS documents filed,
 * denials), each its own CloudEvents type on drive.events.v1.
 */
export const driveAuditActions = [
  'FILE_UPLOADED',
  'FILE_DELETED',
  'FILE_TRASHED',
  'FILE_RESTORED',
  'FILE_PURGED',
  'BULK_DRIVE_DELETED',
  'BULK_DRIVE_TRASHED',
  'BULK_DRIVE_MOVED',
  'FILE_SHARED',
  'FILE_DOWNLOADED',
  'FILE_MOVED',
  'FOLDER_CREATED',
  'FOLDER_UPDATED',
  'FOLDER_DELETED',
  'SIGNATURE_REQUESTED',
  'SIGNATURE_COMPLETED',
  'SIGNATURE_DECLINED',
  'STORAGE_QUOTA_EXCEEDED',
  'DRIVE_EXPORTED',
  'SHARE_TEMPLATE_CREATED',
  'SHARE_TEMPLATE_UPDATED',
  'SHARE_TEMPLATE_DELETED',
  'SHARE_CREATED',
  'SHARE_ACCESSED',
  'SHARE_LINK_COPIED',
  'SHARE_EXPIRED',
  'SHARE_REVOKED',
  'SHARE_FILE_DOWNLOADED',
  'SHARE_REBUILT',
  'SHARE_LINK_CREATED',
  'SHARE_LINK_REVOKED',
  'SHARE_LINK_EXPIRED',
  'SHARE_VIEWED',
  'SHARE_DOWNLOADED',
  'SHARE_LINK_ACCESSED',
  'SHARE_UNAUTHORIZED_ACCESS',
  'SHARE_PASSCODE_FAILED',
  'ATTACHMENT_ANALYZED',
  'SHARE_CREATED_FROM_ANALYSIS',
  // Not in drive.md: the drive's own changes and reads of note.
  'DRIVE_CREATED',
  'DRIVE_UPDATED',
  'DRIVE_MEMBERS_CHANGED',
  'LIBRARY_CREATED',
  'LIBRARY_UPDATED',
  'FILE_RENAMED',
  'FILE_VERSION_ADDED',
  'FILE_VERSION_RESTORED',
  'FILE_PREVIEWED',
  'FILE_REFERENCE_ADDED',
  'FILE_REFERENCE_REMOVED',
  'FILE_REFERENCES_REPAIRED',
  'FILE_CONTENT_FLAGGED',
  'STORAGE_TIER_CHANGED',
  'CIS_DOCUMENT_FILED',
  'PERMISSION_DENIED',
  'SHARE_SETTINGS_CHANGED',
] as const;
export type DriveAuditAction = (typeof driveAuditActions)[number];

/** FILE_UPLOADED → drive.file.uploaded; SHARE_PASSCODE_FAILED → drive.share.passcode_failed. */
export const driveEventType = (action: DriveAuditAction): string =>
  `drive.${action.toLowerCase().replace('_', '.')}`;

export const driveEvents = Object.fromEntries(
  driveAuditActions.map((action) => [
    action,
    defineEvent(driveEventType(action), DRIVE_TOPIC, DriveActivitySchema),
  ]),
) as Record<DriveAuditAction, EventDefinition<typeof DriveActivitySchema>>;

export * from '../gen/workspace/audit/v1/audit_pb.js';
import { AuditCheckpointSignedSchema, AuditEntryRecordedSchema } from '../gen/workspace/audit/v1/audit_pb.js';

/** The audit stream (docs/audit.md): each stored entry of a tenant's hash chain, and each signed chain head. */
export const auditEvents = {
  entryRecorded: defineEvent('audit.entry.recorded', AUDIT_TOPIC, AuditEntryRecordedSchema),
  checkpointSigned: defineEvent('audit.checkpoint.signed', AUDIT_TOPIC, AuditCheckpointSignedSchema),
};
