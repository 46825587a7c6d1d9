import { z } from 'zod';

/**
 * The spec's download and preview calls: fileId, tenantId and driveId (and here a version). The spec's other form
 * (a storage `url` and `name`) is not taken: the service never fetches or redirects to a URL the caller names.
 */
export const fileReadQuery = z.object({
  fileId: z.uuid({ error: 'File not found' }),
  tenantId: z.string().min(1).max(100).optional(),
  driveId: z.uuid({ error: 'File not found' }).optional(),
  version: z.coerce.number().int().min(1).optional(),
});

/** GET /download with `Accept: application/json`: the presigned URL instead of a redirect to it. */
export const downloadResponse = z.object({ url: z.string(), name: z.string(), size: z.number() });

export const previewResponse = z.object({
  kind: z.enum(['pdf', 'image', 'video', 'audio', 'csv', 'json', 'text', 'none']),
  name: z.string(),
  mimeType: z.string(),
  size: z.number(),
  text: z.string().optional(),
  url: z.string().optional(),
  message: z.string().optional(),
});
