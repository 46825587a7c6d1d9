import { trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { maskSensitiveIdentifiers } from './privacy.js';

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

/** A JSON string literal (quotes included), escapes and all. */
const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;

/**
 * Masks every 10-digit number (a UTR's shape) and NINO pattern inside the string values of a finished log line,
 * wherever it sits (a message, an error text, a field the redaction paths do not name). Numbers are left alone:
 * only text is plain text. UUIDs and hex ids (trace ids) are not mistaken for tax references (privacy.ts).
 */
export function maskLogLine(line: string): string {
  return line.replace(JSON_STRING, (literal) => maskSensitiveIdentifiers(literal));
}

/** Adds the trace and span ids of the active OpenTelemetry span (when tracing is on) to each line. */
function traceContext(): Record<string, string> {
  const span = trace.getActiveSpan()?.spanContext();
  return span && span.traceId !== '00000000000000000000000000000000'
    ? { traceId: span.traceId, spanId: span.spanId }
    : {};
}

export function createLogger(
  { name, ...options }: { name: string; level?: string } & LoggerOptions,
  destination?: DestinationStream,
): Logger {
  const settings: LoggerOptions = {
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: redactedPaths, censor: '[redacted]' },
    mixin: traceContext,
    hooks: { streamWrite: maskLogLine },
    ...options,
  };
  return destination ? pino(settings, destination) : pino(settings);
}
