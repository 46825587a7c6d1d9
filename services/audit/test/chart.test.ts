import { readFileSync } from 'node:fs';
import { domainTopics } from '../src/events/domain-topics.js';

/** The topics under kafka.user.consumes in charts/audit/values.yaml (the ACLs of the audit service's Kafka user). */
function chartConsumes(): string[] {
  const values = readFileSync(new URL('../../../charts/audit/values.yaml', import.meta.url), 'utf8');
  const block = /\n {4}consumes:\n((?: {6}- .+\n)+)/.exec(values)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/^ {6}- /, '').trim())
    .filter((line) => line !== '');
}

describe('the audit service’s topics', () => {
  it('are every <service>.events.v1 of the contracts, each with its producer', () => {
    expect(domainTopics()).toEqual({
      'cis.events.v1': 'cis',
      'drive.events.v1': 'drive',
      'identity.events.v1': 'identity',
      'notification.events.v1': 'notification',
    });
  });

  it('are all granted to its Kafka user (charts/audit kafka.user.consumes)', () => {
    expect(chartConsumes().sort()).toEqual(Object.keys(domainTopics()).sort());
  });
});
