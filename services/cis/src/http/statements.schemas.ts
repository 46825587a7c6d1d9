import { z } from 'zod';
import { looseObject, taxMonthLabel } from './common.schemas.js';

export const statementsQuery = z.object({
  taxMonth: taxMonthLabel.optional(),
  filter: z.enum(['all', 'pending', 'generated', 'issued']).default('all'),
});

export const generateBody = z.object({ subcontractorId: z.uuid(), taxMonth: taxMonthLabel });

export const generateAllBody = z.object({ taxMonth: taxMonthLabel });

export const issueBody = z.object({ method: z.enum(['email', 'portal', 'print']) });

export const statementSchema = looseObject;

export const statementMonthResponse = looseObject;

export const statementResponse = z.object({ statement: statementSchema });

export const issuedResponse = looseObject;

export const queuedJobResponse = z.object({ job: looseObject });
