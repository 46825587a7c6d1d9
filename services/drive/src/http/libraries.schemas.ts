import { z } from 'zod';
import { DELETE_POLICIES } from '../domain/index.js';

const tenantId = z.string().min(1).max(100).optional();
const scopes = z.array(z.string().min(1).max(100)).max(50);
const userIds = z.array(z.string().min(1).max(200)).max(500);

const aclInput = z.object({
  readScopes: scopes.optional(),
  writeScopes: scopes.optional(),
  deleteScopes: scopes.optional(),
  shareScopes: scopes.optional(),
});

const policiesInput = z.object({
  readOnly: z.boolean().optional(),
  legalHold: z.boolean().optional(),
  shareAllowed: z.boolean().optional(),
  deletePolicy: z.enum(DELETE_POLICIES).optional(),
  /** '.PDF', 'pdf' and ' Pdf ' are all kept as 'pdf'. */
  allowedExtensions: z.array(z.string().max(30)).max(100).optional(),
  maxFileSizeMB: z.number().nullable().optional(),
});

const shareSourcePolicyInput = z.object({
  externalAllowed: z.boolean().optional(),
  requireWatermark: z.boolean().optional(),
  requireRecord: z.boolean().optional(),
});

/** What may be set on a library (create, PATCH, ensure-default's overrides). */
export const libraryInput = z.object({
  name: z.string().max(200).optional(),
  description: z.string().max(2000).optional(),
  memberIds: userIds.optional(),
  visibleInDriveUI: z.boolean().optional(),
  acl: aclInput.optional(),
  policies: policiesInput.optional(),
  shareSourcePolicy: shareSourcePolicyInput.optional(),
});

export const libraryView = z.object({
  id: z.string(),
  driveId: z.string(),
  driveName: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(['library', 'context']),
  context: z
    .object({ moduleKey: z.string(), entityType: z.string(), entityId: z.string(), entityName: z.string() })
    .nullable(),
  memberIds: z.array(z.string()),
  visibleInDriveUI: z.boolean(),
  acl: z.object({
    readScopes: z.array(z.string()),
    writeScopes: z.array(z.string()),
    deleteScopes: z.array(z.string()),
    shareScopes: z.array(z.string()),
  }),
  policies: z.object({
    readOnly: z.boolean(),
    legalHold: z.boolean(),
    shareAllowed: z.boolean(),
    deletePolicy: z.enum(DELETE_POLICIES),
    allowedExtensions: z.array(z.string()),
    maxFileSizeMB: z.number().nullable(),
  }),
  shareSourcePolicy: z.object({
    externalAllowed: z.boolean(),
    requireWatermark: z.boolean(),
    requireRecord: z.boolean(),
  }),
  createdAt: z.string(),
});

export const librariesQuery = z.object({ tenantId, driveId: z.uuid().optional() });
export const librariesResponse = z.object({ libraries: z.array(libraryView) });
export const libraryParams = z.object({ id: z.uuid() });
export const libraryResponse = z.object({ library: libraryView, libraryId: z.string() });

export const createLibraryBody = libraryInput.extend({ tenantId, driveId: z.uuid() });
export const updateLibraryBody = libraryInput.extend({ tenantId });

/** POST /libraries/ensure-default (drive.md §7). */
export const ensureDefaultBody = z.object({
  tenantId,
  driveId: z.uuid(),
  overrides: libraryInput.optional(),
});
export const ensureDefaultResponse = z.object({
  library: libraryView,
  libraryId: z.string(),
  created: z.boolean(),
});

/** POST /libraries/ensure-module-baseline (drive.md §7). */
export const ensureModuleBaselineBody = z.object({
  tenantId,
  driveId: z.uuid(),
  moduleId: z.string().min(1).max(40),
});
export const moduleFolderView = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  type: z.string(),
  libraryId: z.string().nullable(),
});
export const ensureModuleBaselineResponse = z.object({
  libraryId: z.string(),
  libraries: z.array(libraryView),
  folders: z.array(moduleFolderView),
  created: z.boolean(),
});

/** POST /libraries/get-or-create (drive.md §7): one library per module entity. */
export const getOrCreateBody = z.object({
  tenantId,
  context: z.object({
    moduleKey: z.string().min(1).max(40),
    entityType: z.string().min(1).max(60),
    entityId: z.string().min(1).max(200),
    entityName: z.string().max(200).optional(),
  }),
  defaults: z.object({ memberIds: userIds.optional(), ownerIds: userIds.optional() }).optional(),
});
export const getOrCreateResponse = z.object({ libraryId: z.string(), created: z.boolean() });
