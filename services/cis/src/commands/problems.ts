import { HttpProblem, problems } from '@workspace/kit';

/** Field errors from the domain's validators (`{ field: message }`) as a 400 naming each `body.<field>`. */
export function fieldProblem(errors: Record<string, string>, location = 'body'): HttpProblem {
  return problems.validation(
    Object.entries(errors).map(([field, message]) => ({ field: `${location}.${field}`, message })),
  );
}

export function assertValid(errors: Record<string, string>): void {
  if (Object.keys(errors).length > 0) throw fieldProblem(errors);
}

/** A business rule refused the change (the spec's message in `detail`). */
export const refused = (detail: string, code = 'refused') => new HttpProblem(409, code, detail);

/** The outcome of a batch write: the ids changed and, for each other id, why not. */
export interface BatchResult {
  succeeded: string[];
  failed: { id: string; error: string }[];
}
