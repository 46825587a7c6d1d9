import type { HttpProblem, Logger } from '@workspace/kit';

const TIMEOUT_MS = 10_000;

export interface ServiceCall {
  baseUrl: string;
  method: string;
  path: string;
  authorization: string;
  body?: unknown;
  logger: Logger;
  /** The log message and the problem answered when the service cannot be reached. */
  unreachable: { log: string; problem: () => HttpProblem };
  /** The problem answered when the service refuses (its problem+json `detail` and `code`, when it sent one). */
  refused: (status: number, problem: { detail?: string; code?: string }) => HttpProblem;
}

/** One JSON call to another service with the caller's own token; undefined for a 204. */
export async function callService<T>(call: ServiceCall): Promise<T | undefined> {
  let response: globalThis.Response;
  try {
    response = await fetch(new URL(call.path, call.baseUrl), {
      method: call.method,
      headers: {
        authorization: call.authorization,
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    call.logger.error({ err: error }, call.unreachable.log);
    throw call.unreachable.problem();
  }
  if (!response.ok) {
    const problem = (await response.json().catch(() => ({}))) as { detail?: string; code?: string };
    throw call.refused(response.status, problem);
  }
  return response.status === 204 ? undefined : ((await response.json()) as T);
}
