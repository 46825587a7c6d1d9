import { z } from 'zod';
import { looseObject } from './common.schemas.js';

export const jobParams = z.object({ id: z.uuid() });

export const jobResponse = z.object({ job: looseObject });
