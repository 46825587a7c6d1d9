import { hasScope, HttpProblem, problems, type RequestContext } from '@workspace/kit';
import type { Response } from 'express';
import { z } from 'zod';
import { TAX_MONTH_LABEL_PATTERN } from '../domain/index.js';

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

export const can = (ctx: RequestContext, scope: string) => hasScope(ctx, scope);

export const idParam = z.object({ id: z.uuid() });
export const idsBody = z.object({ ids: z.array(z.uuid()).min(1).max(5_000) });
export const isoDate = z.iso.date();
/** A tax month label 'YYYY-MM' (the domain's rule), refused with `message`. */
export const taxMonthLabelOf = (message: string) => z.string().regex(TAX_MONTH_LABEL_PATTERN, message);

export const taxMonthLabel = taxMonthLabelOf('Tax month must be YYYY-MM');

export const batchResult = z.object({
  succeeded: z.array(z.string()),
  failed: z.array(z.object({ id: z.string(), error: z.string() })),
});
export type BatchResult = z.infer<typeof batchResult>;

export const iso = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();

/** A PostgreSQL `date` column as `YYYY-MM-DD` (pg returns it as a string: see db types set in the service). */
export const dateOnly = (value: string | Date | null | undefined): string | null => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.slice(0, 10);
  return value.toISOString().slice(0, 10);
};

export function sendCsv(res: Response, filename: string, csv: string): void {
  res
    .status(200)
    .type('text/csv; charset=utf-8')
    .set('Content-Disposition', `attachment; filename="${filename}"`)
    .set('Cache-Control', 'no-store')
    .send(csv);
}

export const looseObject = z.record(z.string(), z.unknown());
