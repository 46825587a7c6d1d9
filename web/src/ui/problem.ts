// The one reader of failed calls. The bff and the services answer RFC 9457 problem+json
// (`{ status, code, detail, errors?: [{ field: 'body.x', message }] }`); the bff's own refusals also carry `error`.
// RTK Query hands a failed call over as `{ status, data }`; fetch callers read the Response.

export interface Problem {
  status?: number;
  code?: string;
  detail?: string;
  title?: string;
  errors?: { field: string; message: string }[];
  /** The bff's message beside the problem members (`{ success: false, error }`). */
  error?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function problemBody(error: unknown): Problem | undefined {
  if (!isObject(error) || !('data' in error)) return undefined;
  const data = error.data;
  if (isObject(data)) return data;
  if (typeof data === 'string' && data) return { detail: data };
  return undefined;
}

/** The HTTP status of a failed call (RTK Query's error), if it reached the server. */
export function errorStatus(error: unknown): number | undefined {
  if (isObject(error) && typeof error.status === 'number') return error.status;
  return undefined;
}

/** The text to show for a failed call: the problem's detail (else title, else first field error), else the fallback. */
export function errorMessage(error: unknown, fallback = 'Unknown error occurred'): string {
  const body = problemBody(error);
  if (body?.detail) return body.detail;
  if (body?.title) return body.title;
  if (body?.errors?.[0]?.message) return body.errors[0].message;
  if (isObject(error)) {
    if (typeof error.error === 'string') return error.error;
    if (typeof error.message === 'string') return error.message;
  }
  return fallback;
}

/** For a form without per-field display: the first field error, else the problem's detail, else the fallback. */
export function fieldErrorMessage(error: unknown, fallback: string): string {
  const data = isObject(error) ? (error.data as Problem | undefined) : undefined;
  return data?.errors?.[0]?.message ?? data?.detail ?? fallback;
}

/** Field errors keyed by the form's dotted path ('body.registeredAddress.line1' → 'registeredAddress.line1'). */
export function fieldErrors(error: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  for (const item of problemBody(error)?.errors ?? []) {
    const path = item.field.replace(/^body\.?/, '');
    if (path && !(path in result)) result[path] = item.message;
  }
  return result;
}

/** For antd's form.setFields: the dotted path as a name path. */
export function toFormFields(
  errors: Record<string, string>,
): { name: (string | number)[]; errors: string[] }[] {
  return Object.entries(errors).map(([path, message]) => ({
    name: path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
    errors: [message],
  }));
}

/** The body of a failed fetch answer; {} when it has none or it is not a JSON object. */
export async function readProblem(response: Response): Promise<Problem> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as unknown;
    return isObject(body) ? body : {};
  } catch {
    return {};
  }
}

/** A failed fetch answer's detail, else the fallback. */
export async function problemDetail(response: Response, fallback: string): Promise<string> {
  return (await readProblem(response)).detail ?? fallback;
}

/** A failed answer's message from its body read: `error` when it is a non-empty string, else 'HTTP {status}'. */
export function errorOfBody({ error }: Problem, status: number): string {
  return typeof error === 'string' && error.trim() ? error : `HTTP ${status}`;
}
