import { randomUUID } from 'node:crypto';
import type { BusMessage } from './bus.js';

/** CloudEvents 1.0 attributes, carried in Kafka headers (binary content mode) with the `ce_` prefix. */
export interface CloudEventAttributes {
  id: string;
  type: string;
  source: string;
  time: string;
  subject?: string;
  tenantId: string;
}

export const CE_SPEC_VERSION = '1.0';

/** The CloudEvents `source` of every event a service publishes (`ServiceDeps.source`). */
export const eventSource = (service: string): string => `/workspace/${service}`;

export function cloudEventHeaders(attributes: CloudEventAttributes): Record<string, string> {
  return {
    ce_specversion: CE_SPEC_VERSION,
    ce_id: attributes.id,
    ce_type: attributes.type,
    ce_source: attributes.source,
    ce_time: attributes.time,
    ...(attributes.subject === undefined ? {} : { ce_subject: attributes.subject }),
    ce_tenantid: attributes.tenantId,
    'content-type': 'application/json',
  };
}

export class MalformedEventError extends Error {}

export function parseCloudEventHeaders(headers: Record<string, string>): CloudEventAttributes {
  const required = (name: string): string => {
    const value = headers[name];
    if (value === undefined || value === '') throw new MalformedEventError(`missing header ${name}`);
    return value;
  };
  if (required('ce_specversion') !== CE_SPEC_VERSION)
    throw new MalformedEventError('unsupported ce_specversion');
  const subject = headers.ce_subject;
  return {
    id: required('ce_id'),
    type: required('ce_type'),
    source: required('ce_source'),
    time: required('ce_time'),
    ...(subject === undefined ? {} : { subject }),
    tenantId: required('ce_tenantid'),
  };
}

/** The payload's tenant id, where the event's data carries one (proto3 JSON `tenantId`, or `tenant_id`). */
function payloadTenant(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const record = data as Record<string, unknown>;
  const value = record.tenantId ?? record.tenant_id;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Why a consumer must not act on an event (ADR 0034), or undefined when it may. Each topic has one producer, the
 * only service whose Kafka user may write it, so an event on it that names another source was not written by
 * that service's code; and the tenant header must agree with a tenant the payload names.
 */
export function untrustedEventReason(
  event: { source: string; tenantId: string; data: unknown },
  producer: string,
): string | undefined {
  if (event.source !== eventSource(producer))
    return `source ${event.source} is not the topic's producer ${eventSource(producer)}`;
  const tenant = payloadTenant(event.data);
  if (tenant !== undefined && tenant !== event.tenantId)
    return `ce_tenantid ${event.tenantId} disagrees with the payload's tenant ${tenant}`;
  return undefined;
}

/** Kafka key: tenant id + aggregate id, so one aggregate's events share a partition and stay ordered. */
export const eventKey = (tenantId: string, aggregateId: string): string => `${tenantId}:${aggregateId}`;

export function newEventId(): string {
  return randomUUID();
}

export type { BusMessage };
