import { problems } from '@workspace/kit';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Whether an object store call failed because the store could not be reached (not an S3 answer such as NoSuchKey). */
export function isObjectStoreDown(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    const { errors } = current as { errors?: unknown };
    if (Array.isArray(errors) && errors.some((inner) => isObjectStoreDown(inner))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** What the caller reads when the region's object store cannot be reached: nothing was saved. */
export const objectStoreUnavailable = () =>
  problems.unavailable(
    'The file store is not reachable right now, so nothing was saved. Try again in a few minutes.',
  );

/** Whether an S3 error says the multipart upload is gone (completed or aborted before). */
export const isNoSuchUpload = (error: unknown): boolean =>
  (error as { code?: unknown }).code === 'NoSuchUpload';
