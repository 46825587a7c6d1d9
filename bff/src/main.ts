import { createLogger, exitOnSignals, loadConfig, startTelemetry } from '@workspace/kit';
import { bffConfigSchema } from './config.js';

const config = loadConfig(bffConfigSchema);
const telemetry = await startTelemetry({
  serviceName: 'bff',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
const { startBff } = await import('./app.js');
const logger = createLogger({ name: 'bff', level: config.LOG_LEVEL });
const running = await startBff(config, { logger });
exitOnSignals(
  {
    ...running,
    shutdown: async (reason) => {
      await running.shutdown(reason);
      await telemetry.shutdown();
    },
  },
  logger,
);
