import { register } from 'node:module';
import type { NodeSDK, tracing } from '@opentelemetry/sdk-node';

/** The share of new traces recorded (spec: tracing sample rate 0.1); a trace started upstream keeps its decision. */
export const TRACE_SAMPLE_RATIO = 0.1;

/** The sampler the services trace with: a caller's sampled flag when it sent one, else TRACE_SAMPLE_RATIO of traces. */
export async function traceSampler(ratio = TRACE_SAMPLE_RATIO): Promise<tracing.Sampler> {
  const { tracing: trace } = await import('@opentelemetry/sdk-node');
  return new trace.ParentBasedSampler({ root: new trace.TraceIdRatioBasedSampler(ratio) });
}

export interface TelemetryOptions {
  serviceName: string;
  /** OTLP/HTTP endpoint (e.g. http://otel-collector:4318); tracing stays off when it is not set. */
  otlpEndpoint?: string | undefined;
  /** The share of new traces recorded; TRACE_SAMPLE_RATIO unless given (a test records every one). */
  sampleRatio?: number;
}

export interface Telemetry {
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry tracing (HTTP, express and pg spans exported over OTLP, sampled by traceSampler) when an
 * endpoint is configured.
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
    sampler: await traceSampler(options.sampleRatio),
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
