import type { z } from 'zod';
import type { DriveWithStats } from '../commands/drives.js';
import type { driveView } from './drives.schemas.js';

/** A drive as the browser reads it (drive.md §3): settings grouped, members with their roles, dates as ISO strings. */
export function presentDrive(drive: DriveWithStats): z.input<typeof driveView> {
  return {
    id: drive.id,
    name: drive.name,
    type: drive.type,
    slug: drive.slug,
    ownerId: drive.ownerId,
    memberIds: drive.members.map((member) => member.userId),
    members: drive.members.map((member) => ({
      userId: member.userId,
      role: member.role,
      addedAt: member.addedAt.toISOString(),
      addedBy: member.addedBy,
      displayName: member.displayName,
    })),
    moduleId: drive.moduleId,
    visibility: drive.visibility,
    settings: {
      color: drive.color,
      icon: drive.icon,
      description: drive.description,
      allowExternalSharing: drive.allowExternalSharing,
      retentionDays: drive.retentionDays,
      quotaGB: drive.quotaGb,
      versioningEnabled: drive.versioningEnabled,
      maxVersions: drive.maxVersions,
      defaultLibraryId: drive.defaultLibraryId,
    },
    stats: {
      fileCount: drive.stats.fileCount,
      totalSize: drive.stats.totalSize,
      lastActivity: drive.stats.lastActivity?.toISOString() ?? null,
    },
    createdAt: drive.createdAt.toISOString(),
    updatedAt: drive.updatedAt.toISOString(),
  };
}
