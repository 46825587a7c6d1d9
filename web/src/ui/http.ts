import { problemError } from './problem';

/** A failed request: the body's `error` field as the message, else 'HTTP {status}'. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * The generic GET helper (the spec's): no caching at any level (`cache: 'no-store'`), the session cookie sent,
 * JSON back; a failed answer throws an HttpError whose message is the body's `error` field, else 'HTTP {status}'.
 * RTK Query (web/src/app/api.ts) stays the way screens read the bff; this is for one-off reads outside it.
 */
export async function getJson<T>(url: string, fetchImpl: typeof fetch = fetch): Promise<T> {
  const response = await fetchImpl(url, {
    method: 'GET',
    cache: 'no-store',
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new HttpError(response.status, await problemError(response));
  return (await response.json()) as T;
}
