import * as contracts from '@workspace/proto';
import type { EventDefinition } from '@workspace/proto';

const DOMAIN_TOPIC = /^([a-z]+)\.events\.v1$/;

const isEventDefinition = (value: unknown): value is EventDefinition =>
  value !== null &&
  typeof value === 'object' &&
  typeof (value as EventDefinition).type === 'string' &&
  typeof (value as EventDefinition).topic === 'string' &&
  typeof (value as EventDefinition).schema === 'object';

/**
 * Every `<service>.events.v1` topic a contract of @workspace/proto names, with its producer (the service it is
 * named after; ADR 0034): found from the contracts themselves, so a new service's topic joins the audit trail when
 * its events are declared, without a list here. The platform's own testing topic is left out.
 */
export function domainTopics(): Record<string, string> {
  const topics: Record<string, string> = {};
  for (const exported of Object.values(contracts) as unknown[]) {
    if (exported === null || typeof exported !== 'object' || isEventDefinition(exported)) continue;
    for (const value of Object.values(exported as Record<string, unknown>)) {
      if (!isEventDefinition(value)) continue;
      const producer = DOMAIN_TOPIC.exec(value.topic)?.[1];
      if (producer && producer !== 'testing' && producer !== 'audit') topics[value.topic] = producer;
    }
  }
  return topics;
}
