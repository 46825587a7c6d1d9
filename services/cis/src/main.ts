import { createLogger, exitOnSignals, loadConfig, startService, startTelemetry } from '@workspace/kit';
import { cisConfigSchema } from './config.js';

const config = loadConfig(cisConfigSchema);
const telemetry = await startTelemetry({
  serviceName: 'cis',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
const { cisService } = await import('./service.js');
const { NotificationClient } = await import('@workspace/notification');
const logger = createLogger({ name: 'cis', level: config.LOG_LEVEL });
const mailer = new NotificationClient({
  baseUrl: config.NOTIFICATION_URL,
  internalToken: config.NOTIFICATION_TOKEN,
});
const service = await startService(cisService(config, mailer), config, { logger });
exitOnSignals(
  {
    ...service,
    shutdown: async (reason) => {
      await service.shutdown(reason);
      await telemetry.shutdown();
    },
  },
  logger,
);
