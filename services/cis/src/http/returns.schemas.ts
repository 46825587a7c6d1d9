import { z } from 'zod';
import { RETURN_MESSAGES } from '../domain/index.js';
import { looseObject, taxMonthLabelOf } from './common.schemas.js';

/**
 * The tax month of a returns path: a malformed or blank one is the return service's 'Tax month is required'
 * (cis.md section 8), before anything is read or written.
 */
export const taxMonthParams = z.object({
  taxMonth: z.string().trim().pipe(taxMonthLabelOf(RETURN_MESSAGES.taxMonthRequired)),
});

export const returnIdParams = z.object({ id: z.string().max(80) });

export const historyQuery = z.object({ limit: z.coerce.number().int().min(1).max(12).default(12) });

export const returnSchema = looseObject;

export const currentReturnResponse = looseObject;

export const returnHistoryResponse = z.object({ items: z.array(returnSchema) });

export const returnWithValidationResponse = z.object({ return: returnSchema, validation: looseObject });

export const validationResponse = z.object({ valid: z.boolean(), issues: z.array(z.string()) });

export const compiledResponse = looseObject;

export const returnResponse = z.object({ return: returnSchema });
