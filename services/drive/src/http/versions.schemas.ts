import { z } from 'zod';
import { uploadedFileView } from './uploads.schemas.js';

export const fileParams = z.object({ id: z.uuid() });
export const versionParams = z.object({ id: z.uuid(), version: z.coerce.number().int().min(1) });
export const restoreVersionBody = z.object({ tenantId: z.string().optional() });

export const versionView = z.object({
  version: z.number(),
  size: z.number(),
  checksum: z.string(),
  mimeType: z.string(),
  /** '' for an upload; 'Restored from version {n}', a signature's note, ... */
  note: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  current: z.boolean(),
});

export const versionsResponse = z.object({
  fileId: z.string(),
  current: z.number(),
  versions: z.array(versionView),
});

export const restoredResponse = z.object({ restoredFrom: z.number(), file: uploadedFileView });
