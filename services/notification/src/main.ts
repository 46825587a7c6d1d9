import { createLogger, exitOnSignals, loadConfig, startService, startTelemetry } from '@workspace/kit';
import { notificationConfigSchema } from './config.js';

const config = loadConfig(notificationConfigSchema);
const telemetry = await startTelemetry({
  serviceName: 'notification',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
const { notificationService } = await import('./service.js');
const logger = createLogger({ name: 'notification', level: config.LOG_LEVEL });
const service = await startService(notificationService(config), config, { logger });
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
