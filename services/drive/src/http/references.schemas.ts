import { z } from 'zod';
import { DEFAULT_REFERENCE_TYPE } from '../domain/index.js';

export const referenceParams = z.object({ id: z.uuid(), referenceId: z.uuid() });

export const addReferenceRequest = z.object({
  tenantId: z.string().min(1).optional(),
  moduleId: z.string().trim().min(1, 'moduleId is required').max(100),
  entityId: z.string().trim().min(1, 'entityId is required').max(200),
  referenceType: z.string().trim().min(1).max(50).default(DEFAULT_REFERENCE_TYPE),
  metadata: z.record(z.string(), z.unknown()).default({}),
});

export const referenceView = z.object({
  id: z.string(),
  fileId: z.string(),
  moduleId: z.string(),
  entityId: z.string(),
  referenceType: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});

export const referencesResponse = z.object({
  references: z.array(referenceView),
  /** drive.md §3 refs {schedule, notes, chat, tasks, other, total}. */
  refs: z.object({
    schedule: z.number(),
    notes: z.number(),
    chat: z.number(),
    tasks: z.number(),
    other: z.number(),
    total: z.number(),
  }),
  orphanedRef: z.boolean(),
});

export const addReferenceResponse = referencesResponse.extend({ reference: referenceView });
