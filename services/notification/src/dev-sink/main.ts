import { createLogger } from '@workspace/kit';
import { startSmtpSink } from './sink.js';

// The SMTP sink on its own, for manual runs: SMTP on SMTP_SINK_PORT (1025), its HTTP API on SMTP_SINK_HTTP_PORT
// (8025), both on SMTP_SINK_HOST (127.0.0.1).
const logger = createLogger({ name: 'smtp-sink', level: process.env.LOG_LEVEL ?? 'info' });
const port = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0 || value > 65535)
    throw new Error(`${name} must be a port number`);
  return value;
};
const sink = await startSmtpSink({
  smtpPort: port('SMTP_SINK_PORT', 1025),
  httpPort: port('SMTP_SINK_HTTP_PORT', 8025),
  host: process.env.SMTP_SINK_HOST ?? '127.0.0.1',
});
logger.info({ smtpPort: sink.smtpPort, httpUrl: sink.httpUrl }, 'SMTP sink listening');
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    sink.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
