import { z } from 'zod';
import { TAX_MONTH_LABEL_PATTERN } from '../domain/index.js';

export const idParam = z.object({ id: z.uuid() });
export const idsBody = z.object({ ids: z.array(z.uuid()).min(1).max(5_000) });
/** A statement's key: 16 hex digits. */
export const statementIdParam = z.object({ id: z.string().regex(/^[0-9a-f]{16}$/) });

/** A tax month label 'YYYY-MM' (the domain's rule), refused with `message`. */
export const taxMonthLabelOf = (message: string) => z.string().regex(TAX_MONTH_LABEL_PATTERN, message);

export const taxMonthLabel = taxMonthLabelOf('Tax month must be YYYY-MM');

export const batchResult = z.object({
  succeeded: z.array(z.string()),
  failed: z.array(z.object({ id: z.string(), error: z.string() })),
});

export const looseObject = z.record(z.string(), z.unknown());
