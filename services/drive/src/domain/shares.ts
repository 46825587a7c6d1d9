// Shares (exports) and their public links (drive.md §2 Share Settings, §5 validation, §8 share reasons, §9 policy
// defaults; docs/adr/0047): the pure rules the service and the web both read. Browser-safe.
import { holds, MANAGE_ALL_SCOPE, type Caller } from './access.js';
import type { ShareStatus, ShareVisibility } from './constants.js';

/**
 * The allowed user ids as typed in Share Settings (comma-separated): split on commas, trimmed, empties dropped,
 * each id once (drive.md §5). 'a, ,b' → ['a', 'b'].
 */
export function splitAllowedUids(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== ''),
    ),
  ];
}

/**
 * The expiry date as the settings dialog gives it ('yyyy-mm-dd' or a full timestamp) as a full ISO timestamp, or
 * null when empty (no expiry). A bare date expires at the end of that day, UTC.
 */
export function expiryTimestamp(value: string | null | undefined): string | null {
  const text = (value ?? '').trim();
  if (text === '') return null;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T23:59:59.999Z`) : new Date(text);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not a date: ${text}`);
  return date.toISOString();
}

/** Active until its expiry passes (by the clock); a revoked share is expired too (its link no longer opens). */
export function shareStatus(
  share: { expiresAt: Date | string | null; revokedAt?: Date | string | null },
  now: Date,
): ShareStatus {
  if (share.revokedAt) return 'expired';
  if (share.expiresAt === null) return 'active';
  return new Date(share.expiresAt).getTime() <= now.getTime() ? 'expired' : 'active';
}

/** The reasons a file cannot be shared (drive.md §8), verbatim. */
export const SHARE_REFUSALS = {
  fileNotFound: 'File not found',
  noLibraryAssigned: 'No library assigned',
  noSourceLibrary: 'No source library',
  sourceLibraryNotFound: 'Source library not found',
  noLibraryAccess: 'No library access',
  externalNotAllowed: 'External sharing not allowed from source library',
  accessCheckFailed: 'Access check failed',
  validationFailed: 'Validation failed',
} as const;
export type ShareRefusal = (typeof SHARE_REFUSALS)[keyof typeof SHARE_REFUSALS];

export const SHARE_PERMISSION_MISSING = "You don't have permission to share files";

/** What the share check knows of one file: each part undefined when it was not found. */
export interface ShareFileFacts {
  /** The file, when it exists for the caller (another tenant's or a purged file: undefined). */
  file: { libraryId: string | null } | undefined;
  /** The file's own library (undefined: deleted or never there). */
  library: { id: string; shareSourcePolicy: { externalAllowed: boolean } } | undefined;
  /** The drive the library is in. */
  drive: { allowExternalSharing: boolean } | undefined;
  /** The library the share is created from (the payload's libraryId). */
  sourceLibraryId: string;
  visibility: ShareVisibility;
  /** Whether the caller may read the file (the library's read rule, the drive, the file's own visibility). */
  canRead: () => boolean;
}

/**
 * Why a file may not go into a share, or undefined when it may. In order: it exists; it has a library ('No library
 * assigned'); that library exists ('Source library not found'); it is the library the share is made from (a share
 * exports one library's files: 'No source library'); the caller may read it ('No library access'); and a public
 * share needs both the library's shareSourcePolicy.externalAllowed and the drive's allowExternalSharing. The
 * access check failing is 'Access check failed'; anything else failing, 'Validation failed'.
 */
export function shareFileRefusal(facts: ShareFileFacts): ShareRefusal | undefined {
  try {
    const { file, library, drive } = facts;
    if (!file) return SHARE_REFUSALS.fileNotFound;
    if (!file.libraryId) return SHARE_REFUSALS.noLibraryAssigned;
    if (!library || !drive) return SHARE_REFUSALS.sourceLibraryNotFound;
    if (library.id !== facts.sourceLibraryId) return SHARE_REFUSALS.noSourceLibrary;
    let readable: boolean;
    try {
      readable = facts.canRead();
    } catch {
      return SHARE_REFUSALS.accessCheckFailed;
    }
    if (!readable) return SHARE_REFUSALS.noLibraryAccess;
    if (
      facts.visibility === 'public' &&
      (!library.shareSourcePolicy.externalAllowed || !drive.allowExternalSharing)
    ) {
      return SHARE_REFUSALS.externalNotAllowed;
    }
    return undefined;
  } catch {
    return SHARE_REFUSALS.validationFailed;
  }
}

/**
 * Who may change a share's settings, rebuild it or revoke it: its creator, holders of manage-all or drive.admin,
 * and holders of drive.exports.share (settings, rebuild) or drive.exports.revoke (revoke).
 */
export function canManageShare(
  caller: Caller,
  share: { createdBy: string },
  action: 'settings' | 'rebuild' | 'revoke',
): boolean {
  if (share.createdBy === caller.userId) return true;
  if (holds(caller, MANAGE_ALL_SCOPE) || holds(caller, 'drive.admin')) return true;
  return holds(caller, action === 'revoke' ? 'drive.exports.revoke' : 'drive.exports.share');
}

/** Whether a share's previews and downloads carry a watermark: its own policy, or its library requires one. */
export function watermarkRequired(
  share: { watermark: boolean },
  library: { shareSourcePolicy: { requireWatermark: boolean } } | undefined,
): boolean {
  return share.watermark || library?.shareSourcePolicy.requireWatermark === true;
}

/** The types a watermark can be put on (PDFs and images); other files of a watermarked share are not handed out. */
export function watermarkable(mimeType: string): 'pdf' | 'image' | undefined {
  if (mimeType === 'application/pdf') return 'pdf';
  if (['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/tiff', 'image/avif'].includes(mimeType))
    return 'image';
  return undefined;
}

/** The watermark's line: who views and when (UTC, dd/mm/yyyy hh:mm), and the share. */
export function watermarkText(viewer: string, at: Date, shareName: string): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const when = `${pad(at.getUTCDate())}/${pad(at.getUTCMonth() + 1)}/${String(at.getUTCFullYear())} ${pad(
    at.getUTCHours(),
  )}:${pad(at.getUTCMinutes())} UTC`;
  return `${viewer} - ${when} - ${shareName}`;
}

export const ANONYMOUS_VIEWER = 'Anonymous viewer';

/** The largest file a share watermarks (it is marked in memory, per request): 100 MiB. */
export const WATERMARK_MAX_BYTES = 100 * 1024 * 1024;

/** The texts the public share answers with (shown on the public page as they are). */
export const PUBLIC_SHARE_TEXTS = {
  notFound: 'This share link does not exist or is not available to you.',
  expired: 'This share link has expired.',
  revoked: 'This share link has been revoked.',
  signInRequired: 'Sign in to open this share.',
  notSharedWithYou: 'This share is not shared with you.',
  passcodeRequired: 'This share needs a passcode.',
  wrongPasscode: 'The passcode is not correct.',
  locked:
    'This share link is locked after too many wrong passcodes. Ask the person who shared it to set a new passcode.',
  downloadNotAllowed: 'Downloads are turned off for this share.',
  watermarkTooLarge:
    'This file is too large to be watermarked (over 100 MB): ask the person who shared it for a smaller copy.',
  watermarkUnsupported:
    'This file cannot be previewed or downloaded from this share: the share adds a watermark, and only PDFs and images can carry one.',
} as const;
