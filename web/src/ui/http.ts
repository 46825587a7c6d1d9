import { errorOfBody, readProblem, type Problem } from './problem';

/**
 * A failed request: the body's `error` field as the message, else 'HTTP {status}'; the status and the body read
 * (`details`: the problem's members, {} when the body was empty or not a JSON object) attached.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: Problem = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * The generic GET helper (the spec's): no caching at any level (`cache: 'no-store'`), the session cookie sent,
 * JSON back; a failed answer throws an HttpError whose message is the body's `error` field, else 'HTTP {status}',
 * with the status and the body as its details.
 * RTK Query (web/src/app/api.ts) stays the way screens read the bff; this is for one-off reads outside it.
 */
export async function getJson<T>(url: string, fetchImpl: typeof fetch = fetch): Promise<T> {
  const response = await fetchImpl(url, {
    method: 'GET',
    cache: 'no-store',
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  if (!response.ok) {
    const details = await readProblem(response);
    throw new HttpError(response.status, errorOfBody(details, response.status), details);
  }
  return (await response.json()) as T;
}
