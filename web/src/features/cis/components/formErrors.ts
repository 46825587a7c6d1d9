import type { FormInstance } from 'antd';
import { toFormFields } from '../../../ui/problem';

/** The leaf paths of a changed-values object ({ registeredAddress: { city } } → [['registeredAddress', 'city']]). */
export function changedPaths(values: unknown, prefix: string[] = []): string[][] {
  if (values === null || typeof values !== 'object' || Array.isArray(values)) return [prefix];
  const entries = Object.entries(values as Record<string, unknown>);
  if (entries.length === 0) return [prefix];
  return entries.flatMap(([key, value]) => changedPaths(value, [...prefix, key]));
}

/** Field errors clear as the user edits: call from the form's onValuesChange. */
export function clearEditedErrors(form: FormInstance, changed: unknown): void {
  const paths = changedPaths(changed).filter((path) => path.length > 0);
  const withErrors = paths.filter((path) => form.getFieldError(path).length > 0);
  if (withErrors.length > 0) form.setFields(withErrors.map((name) => ({ name, errors: [] })));
}

/** Shows field errors keyed by dotted path ('registeredAddress.line1') under their fields. */
export function showFieldErrors(form: FormInstance, errors: Record<string, string>): void {
  form.setFields(toFormFields(errors));
}
