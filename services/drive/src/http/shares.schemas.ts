import { z } from 'zod';
import { DEFAULT_SHARE_POLICY, SHARE_REFUSALS, SHARE_STATUSES, SHARE_VISIBILITIES } from '../domain/index.js';

const tenantId = z.string().min(1).max(100).optional();
/** A passcode a share link asks for: 4 to 128 characters (kept only as a scrypt hash). */
export const sharePasscode = z.string().min(4, 'A passcode needs at least 4 characters.').max(128);
const uids = z.array(z.string().trim().min(1).max(200)).max(500);
const expiresAt = z.iso.datetime({ offset: true }).nullable();

export const shareIdParam = z.object({ shareId: z.string().min(1).max(100) });

/** POST /v1/mutations/share (drive.md §7; the payload's fields by their spec names, tenantId optional). */
export const createShareBody = z.object({
  tenantId,
  name: z.string().trim().min(1, 'Share name is required').max(200),
  libraryId: z.string().min(1),
  fileIds: z.array(z.string().min(1).max(100)).min(1, 'Choose at least one file').max(500),
  visibility: z.enum(SHARE_VISIBILITIES).default('restricted'),
  allowedUids: uids.default([]),
  policy: z
    .object({
      allowDownload: z.boolean().default(DEFAULT_SHARE_POLICY.allowDownload),
      watermark: z.boolean().default(DEFAULT_SHARE_POLICY.watermark),
      expiresAt: expiresAt.default(DEFAULT_SHARE_POLICY.expiresAt),
    })
    .default({ ...DEFAULT_SHARE_POLICY }),
  passcode: sharePasscode.optional(),
});

export const shareView = z.object({
  id: z.uuid(),
  name: z.string(),
  libraryId: z.uuid(),
  status: z.enum(SHARE_STATUSES),
  visibility: z.enum(SHARE_VISIBILITIES),
  allowedUids: z.array(z.string()),
  fileCount: z.number().int(),
  policy: z.object({ allowDownload: z.boolean(), watermark: z.boolean(), expiresAt: z.string().nullable() }),
  passcode: z.object({ required: z.boolean(), locked: z.boolean() }),
  url: z.string(),
  revokedAt: z.string().nullable(),
  revokeReason: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** The 422 of a share some files cannot go into: each file and its reason (drive.md §8), nothing created. */
export const shareRefusalsProblem = z.object({
  code: z.literal('share_validation_failed'),
  detail: z.string(),
  refusals: z.array(
    z.object({ fileId: z.string(), reason: z.enum(Object.values(SHARE_REFUSALS) as [string, ...string[]]) }),
  ),
});

export const listSharesQuery = z.object({
  tenantId,
  status: z.enum(SHARE_STATUSES).optional(),
  libraryId: z.string().min(1).max(100).optional(),
  q: z.string().trim().max(200).optional(),
});

export const shareListResponse = z.object({
  items: z.array(shareView),
  counts: z.object({ all: z.number().int(), active: z.number().int(), expired: z.number().int() }),
});

export const shareTenantQuery = z.object({ tenantId });

export const shareDetailResponse = shareView.extend({
  files: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      size: z.number(),
      mimeType: z.string(),
      missing: z.boolean(),
    }),
  ),
});

export const shareSettingsBody = z.object({
  tenantId,
  updates: z.object({
    visibility: z.enum(SHARE_VISIBILITIES).optional(),
    allowedUids: uids.optional(),
    policy: z
      .object({
        allowDownload: z.boolean().optional(),
        watermark: z.boolean().optional(),
        expiresAt: expiresAt.optional(),
      })
      .optional(),
  }),
  /** A new passcode (unlocks a locked link); null removes the passcode; absent keeps it. */
  passcode: sharePasscode.nullable().optional(),
});

export const shareTenantBody = z.object({ tenantId });

export const rebuildResponse = z.object({ removed: z.number().int(), message: z.string() });

export const revokeShareBody = z.object({ tenantId, reason: z.string().trim().max(500).optional() });
