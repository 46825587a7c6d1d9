import { register } from 'node:module';
import type { NodeSDK } from '@opentelemetry/sdk-node';

export interface TelemetryOptions {
  serviceName: string;
  /** OTLP/HTTP endpoint (e.g. http://otel-collector:4318); tracing stays off when it is not set. */
  otlpEndpoint?: string | undefined;
}

export interface Telemetry {
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry tracing (HTTP, express and pg spans exported over OTLP) when an endpoint is configured.
 * Call it before importing the modules to trace: under ESM the instrumentations patch modules through the
 * loader hook registered here, so a service's main imports its app dynamically after this resolves.
 */
export async function startTelemetry(options: TelemetryOptions): Promise<Telemetry> {
  if (!options.otlpEndpoint) return { shutdown: () => Promise.resolve() };
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const [
    { NodeSDK },
    { OTLPTraceExporter },
    { HttpInstrumentation },
    { ExpressInstrumentation },
    { PgInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-express'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const sdk: NodeSDK = new NodeSDK({
    serviceName: options.serviceName,
    traceExporter: new OTLPTraceExporter({ url: `${options.otlpEndpoint.replace(/\/$/, '')}/v1/traces` }),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)/.test(req.url ?? ''),
      }),
      new ExpressInstrumentation(),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
