// Creates every topic the product uses on the local broker, explicitly (the broker does not auto-create topics):
// each service's `<service>.events.v1`, the audit stream `audit.v1`, and the platform tests' topic.
import { createLogger, KafkaBus } from '@workspace/kit';
import { allTopics, testingEvents } from '@workspace/proto';

const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:59092').split(',');
const bus = new KafkaBus({
  clientId: 'topics',
  brokers,
  logger: createLogger({ name: 'topics', level: 'warn' }),
  partitions: Number(process.env.KAFKA_TOPIC_PARTITIONS ?? 6),
});
try {
  await bus.ensureTopics([...allTopics, testingEvents.ledgerEntryRecorded.topic]);
} finally {
  await bus.close();
}
