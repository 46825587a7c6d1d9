import { createLogger, exitOnSignals, loadConfig, startTelemetry } from '@workspace/kit';
import { notificationConfigSchema } from './config.js';

const config = loadConfig(notificationConfigSchema);
const telemetry = await startTelemetry({
  serviceName: 'notification',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
const { startNotificationService } = await import('./service.js');
const logger = createLogger({ name: 'notification', level: config.LOG_LEVEL });
const service = await startNotificationService(config, { logger });
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
