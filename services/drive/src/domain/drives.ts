// Drives and libraries (drive.md §3, §5, §7): the Create Shared Drive capacity rule, the quota ranges, library
// policy input, and the module drive catalogue (schedule, chat, notes, cis) with their libraries and folders.
import { TAX_MONTH_LABEL_PATTERN, taxMonthPeriod } from '@workspace/rules';
import { MANAGE_ALL_SCOPE } from './access.js';
import type { LibraryAcl, LibraryPolicies, ShareSourcePolicy } from './access.js';
import {
  DRIVE_QUOTA_MAX_GB,
  DRIVE_QUOTA_MIN_GB,
  FALLBACK_CAPACITY_GB,
  GIB,
  MAX_FILE_SIZE_BYTES,
  MIB,
} from './constants.js';

export const DRIVE_MESSAGES = {
  nameRequired: 'Drive name is required',
  quotaExceedsCapacity: (remainingGB: number) =>
    `Quota exceeds remaining capacity (${String(remainingGB)} GB)`,
  quotaBelowMinimum: `Quota must be at least ${String(DRIVE_QUOTA_MIN_GB)} GB`,
  quotaOutOfRange: `Quota must be between ${String(DRIVE_QUOTA_MIN_GB)} and ${String(DRIVE_QUOTA_MAX_GB)} GB`,
  cannotCreate: "You don't have permission to create shared drives",
  cannotManage: "You don't have permission to manage this drive",
  ownerStays: 'The drive owner cannot be removed or given another role',
  unknownModule: (moduleId: string) => `Unknown module: ${moduleId}`,
  moduleDriveMissing: 'Module drive not provisioned',
  autoProvisionOff: 'Module drives are not provisioned automatically in this organisation',
  notModuleDrive: (moduleId: string) => `This drive is not the ${moduleId} module drive`,
} as const;

export const LIBRARY_MESSAGES = {
  nameRequired: 'Library name is required',
  cannotCreate: "You don't have permission to create libraries",
  cannotManage: "You don't have permission to manage libraries",
  badExtension: (ext: string) => `"${ext}" is not a file extension`,
  maxFileSize: `Maximum file size must be between 1 and ${String(MAX_FILE_SIZE_BYTES / MIB)} MB`,
  badScope: (scope: string) => `"${scope}" is not a scope`,
  personalDrive: 'Libraries cannot be added to a personal drive',
} as const;

/**
 * The Create Shared Drive capacity (drive.md §5): whole GB of the tenant's limit minus the GB it uses, floored at 0.
 * `limitBytes` undefined means the capacity check failed: the spec's fallback of 5 GB.
 */
export function remainingCapacityGB(limitBytes: number | undefined, usedBytes: number): number {
  if (limitBytes === undefined || !Number.isFinite(limitBytes)) return FALLBACK_CAPACITY_GB;
  return Math.max(0, Math.floor(limitBytes / GIB) - Math.ceil(usedBytes / GIB));
}

/** A new shared drive's quota: at least 1 GB and not above the remaining capacity. Undefined when it fits. */
export function createQuotaError(quotaGB: number, remainingGB: number): string | undefined {
  if (!Number.isInteger(quotaGB) || quotaGB < DRIVE_QUOTA_MIN_GB) return DRIVE_MESSAGES.quotaBelowMinimum;
  if (quotaGB > remainingGB) return DRIVE_MESSAGES.quotaExceedsCapacity(remainingGB);
  return undefined;
}

/** Edit Drive Settings' quota: 1 to 1000 GB (drive.md §5). */
export function editQuotaError(quotaGB: number): string | undefined {
  return Number.isInteger(quotaGB) && quotaGB >= DRIVE_QUOTA_MIN_GB && quotaGB <= DRIVE_QUOTA_MAX_GB
    ? undefined
    : DRIVE_MESSAGES.quotaOutOfRange;
}

/** A drive name as kept: trimmed; undefined when blank (the caller answers 'Drive name is required'). */
export function driveName(raw: string | undefined): string | undefined {
  const name = (raw ?? '').trim();
  return name === '' ? undefined : name;
}

/**
 * A library's allowed extensions as kept: bare, lower case, without duplicates ('.PDF', 'pdf', ' Pdf ' → 'pdf').
 * Returns the first entry that is not an extension as `invalid`.
 */
export function normaliseExtensions(raw: readonly string[]): { extensions: string[]; invalid?: string } {
  const extensions: string[] = [];
  for (const entry of raw) {
    const ext = entry.trim().replace(/^\.+/, '').toLowerCase();
    if (!/^[a-z0-9][a-z0-9_+-]{0,19}$/.test(ext)) return { extensions, invalid: entry };
    if (!extensions.includes(ext)) extensions.push(ext);
  }
  return { extensions };
}

/** The largest per-library file size one may set: the drive's own maximum (5 GiB). */
export const MAX_LIBRARY_FILE_SIZE_MB = MAX_FILE_SIZE_BYTES / MIB;

export const maxFileSizeError = (mb: number | null): string | undefined =>
  mb === null || (Number.isInteger(mb) && mb >= 1 && mb <= MAX_LIBRARY_FILE_SIZE_MB)
    ? undefined
    : LIBRARY_MESSAGES.maxFileSize;

/** A scope a library ACL may name: a dotted lower-case scope of any module, or '*'. */
export const isScopeName = (scope: string): boolean =>
  scope === '*' || /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/.test(scope);

/** The modules that get a drive of their own (drive.md §7, workspace.md WS-354..357). */
export const MODULE_IDS = ['schedule', 'chat', 'notes', 'cis'] as const;
export type ModuleId = (typeof MODULE_IDS)[number];
export const isModuleId = (value: string): value is ModuleId =>
  (MODULE_IDS as readonly string[]).includes(value);

/** The module folder names of drive.md §7, by key. */
export const MODULE_FOLDER_NAMES = {
  schedule: 'Schedule Files',
  sign: 'Signatures',
  notes: 'Notes',
  chat: 'Chat Files',
  docs: 'Documentation',
  shared: 'Shared Files',
} as const;
export type ModuleFolderKey = keyof typeof MODULE_FOLDER_NAMES;

export interface ModuleDriveSpec {
  driveName: string;
  /** The share library: the drive's default library, where the module's attachments go. */
  libraryName: string;
  /** Default sub-folders of the share library (docs/drive.md says why each). */
  folders: readonly ModuleFolderKey[];
}

/**
 * Each module's drive and share library (verbatim), and the module folders it gets: the module's own folder,
 * Signatures where the module asks for signatures (schedule: site paperwork; cis: contracts), Documentation where it
 * keeps reference documents (notes, cis), and Shared Files in every one for what is handed to others.
 */
export const MODULE_DRIVES: Readonly<Record<ModuleId, ModuleDriveSpec>> = {
  schedule: {
    driveName: 'Schedule Files',
    libraryName: 'Team Space',
    folders: ['schedule', 'sign', 'shared'],
  },
  chat: { driveName: 'Chat Files', libraryName: 'Conversations', folders: ['chat', 'shared'] },
  notes: { driveName: 'Notes Files', libraryName: 'Workspace', folders: ['notes', 'docs', 'shared'] },
  cis: { driveName: 'CIS Documents', libraryName: 'Operational', folders: ['docs', 'sign', 'shared'] },
};

/** A module's share library: the drive's own read, write, delete and share scopes. */
export const MODULE_SHARE_LIBRARY_ACL: LibraryAcl = {
  readScopes: ['drive.file.read'],
  writeScopes: ['drive.file.upload'],
  deleteScopes: ['drive.file.soft_delete', 'drive.file.hard_delete'],
  shareScopes: ['drive.file.share'],
};

/**
 * Module drive auto-provision (drive.md §4): only when the flag is on and the caller can create or manage drives.
 */
export function mayAutoProvision(
  flagOn: boolean,
  abilities: { canCreateDrives: boolean; canManageDrives: boolean },
): boolean {
  return flagOn && (abilities.canCreateDrives || abilities.canManageDrives);
}

/** The scope that opens the CIS documents library: cis's own unmask scope (the documents carry clear UTRs and NINOs). */
export const CIS_UNMASK_SCOPE = 'cis.pii.unmask';

/**
 * The library of the CIS drive where cis files what it issues and submits: readable only by holders of cis.pii.unmask
 * (drive.manage_all does not open it: access.ts), no user writes (readOnly, no write scopes), never shared (inside
 * or outside the tenant), under legal hold (kept; HMRC's record-keeping), deletion for managers once the hold is
 * lifted.
 */
export const CIS_DOCUMENTS_LIBRARY = {
  name: 'Statements and returns',
  description: 'Payment and deduction statements and CIS300 returns, filed by the CIS module.',
  acl: { readScopes: [CIS_UNMASK_SCOPE], writeScopes: [], deleteScopes: [MANAGE_ALL_SCOPE], shareScopes: [] },
  policies: {
    readOnly: true,
    legalHold: true,
    shareAllowed: false,
    deletePolicy: 'managerOnly',
    allowedExtensions: ['pdf', 'xml'],
    maxFileSizeMB: null,
  },
  shareSourcePolicy: { externalAllowed: false, requireWatermark: true, requireRecord: true },
} as const satisfies {
  name: string;
  description: string;
  acl: LibraryAcl;
  policies: LibraryPolicies;
  shareSourcePolicy: ShareSourcePolicy;
};

/** What cis files in its drive: issued statements and submitted returns. */
export type CisDocumentKind = 'statement' | 'return';

/** The folder a CIS document of a tax month ('YYYY-MM', labelled by its start month) is filed in: its tax year. */
export function cisTaxYearFolder(taxMonth: string): string {
  if (!TAX_MONTH_LABEL_PATTERN.test(taxMonth)) return 'Other documents';
  return `Tax year ${taxMonthPeriod(taxMonth).taxYear}`;
}

/** The personal drive each user gets on first use, and its library. */
export const PERSONAL_DRIVE_NAME = 'My Drive';
export const DEFAULT_LIBRARY_NAME = 'Documents';
