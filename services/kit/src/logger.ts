import { trace } from '@opentelemetry/api';
import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/**
 * Paths removed from every log line. Logs never carry secrets (tokens, passwords, cookies, keys) or PII that
 * the product protects (UTR, NINO); the list covers them wherever they sit in a logged object.
 */
export const redactedPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...[
    'password',
    'token',
    'accessToken',
    'refreshToken',
    'idToken',
    'secret',
    'apiKey',
    'utr',
    'nino',
  ].flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
];

/** Adds the trace and span ids of the active OpenTelemetry span (when tracing is on) to each line. */
function traceContext(): Record<string, string> {
  const span = trace.getActiveSpan()?.spanContext();
  return span && span.traceId !== '00000000000000000000000000000000'
    ? { traceId: span.traceId, spanId: span.spanId }
    : {};
}

export function createLogger({ name, ...options }: { name: string; level?: string } & LoggerOptions): Logger {
  return pino({
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: redactedPaths, censor: '[redacted]' },
    mixin: traceContext,
    ...options,
  });
}
