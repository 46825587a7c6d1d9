import { z } from 'zod';
import { DRIVE_COLOURS, DRIVE_TYPES, MEMBER_ROLES } from '../domain/index.js';

/** The spec's payloads carry the tenant; absent means the caller's own, another answers 404. */
const tenantId = z.string().min(1).max(100).optional();
const userId = z.string().min(1).max(200);

export const driveMemberView = z.object({
  userId: z.string(),
  role: z.enum(MEMBER_ROLES),
  addedAt: z.string(),
  addedBy: z.string(),
  displayName: z.string(),
});

export const driveSettingsView = z.object({
  color: z.string(),
  icon: z.string(),
  description: z.string(),
  allowExternalSharing: z.boolean(),
  retentionDays: z.number().nullable(),
  quotaGB: z.number(),
  versioningEnabled: z.boolean(),
  maxVersions: z.number(),
  defaultLibraryId: z.string().nullable(),
});

/** A drive as drive.md §3 describes it: members, settings and stats. */
export const driveView = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(DRIVE_TYPES),
  slug: z.string(),
  ownerId: z.string(),
  memberIds: z.array(z.string()),
  members: z.array(driveMemberView),
  moduleId: z.string().nullable(),
  visibility: z.enum(['members', 'tenant']),
  settings: driveSettingsView,
  stats: z.object({ fileCount: z.number(), totalSize: z.number(), lastActivity: z.string().nullable() }),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const drivesResponse = z.object({ drives: z.array(driveView) });
export const driveResponse = z.object({ drive: driveView });
export const driveCreatedResponse = z.object({ drive: driveView, driveId: z.string(), created: z.boolean() });

export const driveParams = z.object({ id: z.uuid() });
export const drivesTenantQuery = z.object({ tenantId });

const driveSettingsInput = z.object({
  color: z.enum(DRIVE_COLOURS).optional(),
  icon: z.string().min(1).max(40).optional(),
  description: z.string().max(2000).optional(),
  allowExternalSharing: z.boolean().optional(),
  retentionDays: z.number().int().min(1).max(36_500).nullable().optional(),
  /** Checked by the service against the remaining capacity (its messages are the spec's). */
  quotaGB: z.number().optional(),
  versioningEnabled: z.boolean().optional(),
  maxVersions: z.number().int().min(1).max(100).optional(),
});

/** POST /drives/create (drive.md §7): a shared or custom drive, or a module drive with its moduleId. */
export const createDriveBody = z.object({
  tenantId,
  drive: z.object({
    /** Optional here so a blank or missing name gets the spec's 'Drive name is required'. */
    name: z.string().max(200).optional(),
    type: z.enum(['shared', 'custom', 'module']).optional(),
    moduleId: z.string().min(1).max(40).optional(),
    settings: driveSettingsInput.optional(),
    memberIds: z.array(userId).max(500).optional(),
  }),
});

/** POST /drives/update (drive.md §7): name, description, colour and quota. */
export const updateDriveBody = z.object({
  tenantId,
  driveId: z.uuid(),
  updates: z.object({
    name: z.string().max(200).optional(),
    settings: z
      .object({
        description: z.string().max(2000).optional(),
        color: z.enum(DRIVE_COLOURS).optional(),
        quotaGB: z.number().optional(),
      })
      .optional(),
  }),
});

const memberRole = z.enum(['manager', 'contributor']);

export const addMembersBody = z.object({
  tenantId,
  userIds: z.array(userId).min(1).max(100),
  role: memberRole.default('contributor'),
});

export const memberParams = z.object({ id: z.uuid(), userId });
export const memberRoleBody = z.object({ tenantId, role: memberRole });

export const moduleParams = z.object({ moduleId: z.string().min(1).max(40) });
