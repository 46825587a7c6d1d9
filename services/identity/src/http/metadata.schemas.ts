import { z } from 'zod';
import { branding } from './tenant.schemas.js';

export const metadataView = z.object({
  id: z.string(),
  name: z.string(),
  databaseRegion: z.string(),
  branding,
});
