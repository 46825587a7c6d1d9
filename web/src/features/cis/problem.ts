// RFC 9457 problem+json from the bff and the cis service: `{ status, code, detail, errors?: [{ field, message }] }`.
// Field errors name the field as `body.<path>`; forms show them under the field of that path.

export interface Problem {
  status?: number;
  code?: string;
  detail?: string;
  title?: string;
  errors?: { field: string; message: string }[];
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

/** The text to show for a failed call: the problem's detail, else the fallback. */
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
