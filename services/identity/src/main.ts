import { createLogger, exitOnSignals, loadConfig, startService, startTelemetry } from '@workspace/kit';
import { identityConfigSchema } from './config.js';

const config = loadConfig(identityConfigSchema);
const telemetry = await startTelemetry({
  serviceName: 'identity',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
const { identityService } = await import('./service.js');
const logger = createLogger({ name: 'identity', level: config.LOG_LEVEL });
const service = await startService(identityService(config), config, { logger });
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
