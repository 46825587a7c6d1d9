import type { DescMessage } from '@bufbuild/protobuf';
import {
  PortalLinkChangedSchema,
  RoleBundleChangedSchema,
  TenantChangedSchema,
  UserChangedSchema,
  WhitelistChangedSchema,
} from '../gen/workspace/identity/v1/events_pb.js';
import { LedgerEntryRecordedSchema } from '../gen/workspace/testing/v1/ledger_pb.js';

export * from '../gen/workspace/identity/v1/events_pb.js';
export * from '../gen/workspace/testing/v1/ledger_pb.js';

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
