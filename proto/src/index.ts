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
import {
  cisAuditActions,
  driveAuditActions,
  type CisAuditAction,
  type CisNoticeAction,
  type DriveAuditAction,
} from './actions.js';

export * from './actions.js';

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

/** Each audit action of cis (cisAuditActions, ./actions.ts) its own CloudEvents type on cis.events.v1. */
export const cisEvents = Object.fromEntries(
  cisAuditActions.map((action) => [action, defineEvent(action, CIS_TOPIC, CisActivitySchema)]),
) as Record<CisAuditAction, EventDefinition<typeof CisActivitySchema>>;

/** cis's notices that are not audit actions of a person (cisNoticeActions, ./actions.ts). */
export const cisNoticeEvents = {
  deadlineAlerted: defineEvent(
    'cis.deadline.alerted' satisfies CisNoticeAction,
    CIS_TOPIC,
    CisDeadlineAlertedSchema,
  ),
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

/** FILE_UPLOADED → drive.file.uploaded; SHARE_PASSCODE_FAILED → drive.share.passcode_failed. */
export const driveEventType = (action: DriveAuditAction): string =>
  `drive.${action.toLowerCase().replace('_', '.')}`;

/** Each audit action of the drive (driveAuditActions, ./actions.ts) its own CloudEvents type on drive.events.v1. */
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
