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

export function createLogger(options: { name: string; level?: string } & LoggerOptions): Logger {
  return pino({
    base: { service: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: redactedPaths, censor: '[redacted]' },
    ...options,
  });
}
