// The drive's business constants (drive.md §9), in one place for the service and the web.

export const GIB = 1024 ** 3;
export const MIB = 1024 ** 2;

export const STORAGE_TIERS = ['free', 'starter', 'professional', 'enterprise', 'custom'] as const;
export type StorageTier = (typeof STORAGE_TIERS)[number];
export const DEFAULT_STORAGE_TIER: StorageTier = 'free';

/** Tier limits in bytes; custom has none of its own (the tenant's customLimit). */
export const TIER_LIMIT_BYTES: Readonly<Record<Exclude<StorageTier, 'custom'>, number>> = {
  free: 5 * GIB,
  starter: 50 * GIB,
  professional: 200 * GIB,
  enterprise: 1024 * GIB,
};

export interface TierFeatures {
  versioning: boolean;
  advancedSharing: boolean;
  analytics: boolean;
  customRetention: boolean;
}

/**
 * Versioning for every tier but free; advanced sharing and analytics for professional and enterprise (and custom when
 * set); custom retention for enterprise and custom.
 */
export function tierFeatures(tier: StorageTier, custom: Partial<TierFeatures> = {}): TierFeatures {
  const paid = tier !== 'free';
  const upper = tier === 'professional' || tier === 'enterprise';
  return {
    versioning: paid,
    advancedSharing: upper || (tier === 'custom' && custom.advancedSharing === true),
    analytics: upper || (tier === 'custom' && custom.analytics === true),
    customRetention: tier === 'enterprise' || tier === 'custom',
  };
}

/** The tenant's capacity in bytes: the tier's limit, or the custom limit (none set: the fallback capacity). */
export function tierLimitBytes(tier: StorageTier, customLimitBytes: number | null): number {
  if (tier === 'custom') return customLimitBytes ?? FALLBACK_CAPACITY_GB * GIB;
  return TIER_LIMIT_BYTES[tier];
}

/** The capacity used when the capacity check itself fails. */
export const FALLBACK_CAPACITY_GB = 5;

/** The largest file the drive takes. */
export const MAX_FILE_SIZE_BYTES = 5 * GIB;

/** Uploads: 3 files at once, 5 MiB parts, 3 retries with a 1 s delay growing linearly. */
export const UPLOAD_CONCURRENCY = 3;
export const UPLOAD_PART_SIZE = 5 * MIB;
export const UPLOAD_RETRIES = 3;
export const UPLOAD_RETRY_DELAY_MS = 1_000;

/** Names are cut to this many characters. */
export const MAX_NAME_LENGTH = 255;

/** File list paging (drive.md §9's cache figures, adopted as the list's: docs/drive.md). */
export const PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
export const RECENT_FILES_LIMIT = 50;
export const RECENT_FILES_DAYS = 30;
export const DASHBOARD_RECENT_FILES = 10;

export const DRIVE_TYPES = ['personal', 'shared', 'module', 'custom'] as const;
export type DriveType = (typeof DRIVE_TYPES)[number];

export const MEMBER_ROLES = ['owner', 'manager', 'contributor'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const DRIVE_COLOURS = ['blue', 'green', 'purple', 'orange', 'red', 'gray'] as const;
export type DriveColour = (typeof DRIVE_COLOURS)[number];

export const FOLDER_COLOURS = ['primary', 'blue', 'purple', 'pink', 'amber', 'red', 'green', 'teal'] as const;
export type FolderColour = (typeof FOLDER_COLOURS)[number];

/** New drives: colour blue, icon Folder, no external sharing, no retention, 1 GB, versioning on, 10 versions. */
export const DEFAULT_DRIVE_SETTINGS = {
  color: 'blue' as DriveColour,
  icon: 'Folder',
  description: '',
  allowExternalSharing: false,
  retentionDays: null as number | null,
  quotaGB: 1,
  versioningEnabled: true,
  maxVersions: 10,
};
/** The Edit Drive Settings form's quota when the drive has none. */
export const EDIT_FORM_DEFAULT_QUOTA_GB = 10;
export const DRIVE_QUOTA_MIN_GB = 1;
export const DRIVE_QUOTA_MAX_GB = 1000;

export const DELETE_POLICIES = ['none', 'ownerOnly', 'managerOnly', 'twoPerson'] as const;
export type DeletePolicy = (typeof DELETE_POLICIES)[number];

export const FILE_VISIBILITIES = ['shared', 'private', 'restricted'] as const;
export type FileVisibility = (typeof FILE_VISIBILITIES)[number];

export const FILE_STATUSES = ['active', 'trashed'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

export const SHARE_VISIBILITIES = ['tenant', 'public', 'restricted'] as const;
export type ShareVisibility = (typeof SHARE_VISIBILITIES)[number];

export const SHARE_STATUSES = ['active', 'expired'] as const;
export type ShareStatus = (typeof SHARE_STATUSES)[number];

export const DEFAULT_SHARE_POLICY = {
  allowDownload: true,
  watermark: false,
  expiresAt: null as string | null,
};
export const DEFAULT_REVOKE_REASON = 'Manual revocation';

export const SIGNATURE_STATUSES = ['pending', 'signed'] as const;
export type SignatureStatus = (typeof SIGNATURE_STATUSES)[number];

export const REGIONS = ['uk', 'eu', 'us'] as const;
export type Region = (typeof REGIONS)[number];
export const DEFAULT_REGION: Region = 'uk';

/** The file type classes (drive.md §9) and the usage counters they feed (drive.md §3). */
export const FILE_TYPE_CLASSES = [
  'image',
  'video',
  'audio',
  'pdf',
  'document',
  'spreadsheet',
  'presentation',
  'code',
  'archive',
  'other',
] as const;
export type FileTypeClass = (typeof FILE_TYPE_CLASSES)[number];

export const USAGE_COUNTERS = [
  'pdf',
  'images',
  'video',
  'audio',
  'documents',
  'spreadsheets',
  'presentations',
  'archives',
  'other',
] as const;
export type UsageCounter = (typeof USAGE_COUNTERS)[number];

/** Repair of file references: 10 at a time. */
export const REPAIR_BATCH_SIZE = 10;
/** Module files are handled 30 at a time. */
export const MODULE_FILE_BATCH = 30;
