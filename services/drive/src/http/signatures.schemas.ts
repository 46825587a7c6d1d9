import { z } from 'zod';
import { tenantId } from './common.schemas.js';

export const signatureRequestBody = z.object({
  tenantId,
  fileId: z.uuid(),
  assignedToUid: z.string().trim().min(1).max(200),
});

export const signatureListQuery = z.object({
  status: z.enum(['pending', 'signed', 'declined']).default('pending'),
  scope: z.enum(['assigned', 'created']).default('assigned'),
});

export const signatureTaskParams = z.object({ taskId: z.uuid() });

/** The drawn signature: a PNG data URL (at most 512 KB of PNG, so about 700 kB of base64). */
export const signBody = z.object({
  tenantId,
  signature: z.string().min(1).max(720_000),
});

export const declineBody = z.object({
  tenantId,
  reason: z.string().trim().max(500).default(''),
});

export const signTaskView = z.object({
  id: z.string(),
  fileId: z.string(),
  fileName: z.string(),
  driveId: z.string(),
  assignedToUid: z.string(),
  assignedToName: z.string(),
  createdByUid: z.string(),
  createdByName: z.string(),
  status: z.enum(['pending', 'signed', 'declined']),
  createdAt: z.string(),
  signedAt: z.string().nullable(),
  signedVersion: z.number().int().nullable(),
  signaturePath: z.string().nullable(),
  signedFilePath: z.string().nullable(),
  hashBefore: z.string().nullable(),
  hashAfter: z.string().nullable(),
  declinedAt: z.string().nullable(),
  declineReason: z.string().nullable(),
});

export const signTaskResponse = z.object({ message: z.string(), task: signTaskView });
export const signTaskListResponse = z.object({ items: z.array(signTaskView) });
export const declineResponse = z.object({ task: signTaskView });
