import type { Request } from 'express';
import { problems } from './problem.js';

/** The header a client repeats on a retried mutation so that it takes effect once. */
export const IDEMPOTENCY_HEADER = 'x-idempotency-key';

/** The request's idempotency key (X-Idempotency-Key), when it sent one; 1 to 200 visible characters. */
export function idempotencyKey(req: Request): string | undefined {
  const value = req.headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(value)) {
    throw problems.badRequest('X-Idempotency-Key must be 1 to 200 visible characters.');
  }
  return value;
}
