// What an upload must pass (drive.md §5), in the spec's order: the tenant's storage quota first, then the library's
// policy, then the configured limits. And what content sniffing decides once the bytes are stored (docs/drive.md
// "Uploads": a known binary type that contradicts the name is refused). Pure: the service and the web share them.
import { GIB, MIB, UPLOAD_PART_SIZE } from './constants.js';
import { extensionOf, fileTypeClass } from './file-types.js';
import type { LibraryPolicies } from './access.js';

/** A size in GB (GiB, base 1024 as the spec's size formatting) with two decimals: 0.5 GiB is '0.50'. */
export const gigabytes = (bytes: number): string => (Math.max(bytes, 0) / GIB).toFixed(2);

/** drive.md §8's STORAGE_LIMIT_EXCEEDED text, with the figures. */
export const storageLimitMessage = (remainingBytes: number, requiredBytes: number): string =>
  `Storage limit exceeded. You have ${gigabytes(remainingBytes)} GB remaining, but this file requires ` +
  `${gigabytes(requiredBytes)} GB. Please upgrade your storage plan or delete some files.`;

export interface QuotaCheck {
  limitBytes: number;
  usedBytes: number;
}

/** The quota refusal for a file of `size` bytes, or undefined when the remaining space is at least its size. */
export function quotaRefusal(
  quota: QuotaCheck,
  size: number,
): { message: string; remainingGB: number; requiredGB: number } | undefined {
  const remaining = Math.max(quota.limitBytes - quota.usedBytes, 0);
  if (size <= remaining) return undefined;
  return {
    message: storageLimitMessage(remaining, size),
    remainingGB: Number(gigabytes(remaining)),
    requiredGB: Number(gigabytes(size)),
  };
}

/** Remaining storage in the toolbar (drive.md §5): (cap − used) in GiB, floored, at least 0. */
export const remainingWholeGB = (capBytes: number, usedBytes: number): number =>
  Math.max(Math.floor((capBytes - usedBytes) / GIB), 0);

/** A size in MB for the policy message: whole megabytes as integers, otherwise two decimals ('12.50'). */
const megabytes = (bytes: number): string => {
  const mb = bytes / MIB;
  return Number.isInteger(mb) ? String(mb) : mb.toFixed(2);
};

/**
 * The library policy refusal (E_POLICY_BLOCKED), or undefined: the extension must be one of allowedExtensions (none
 * listed: any), and the size must not exceed maxFileSizeMB (none: no library limit).
 */
export function libraryPolicyRefusal(
  policies: Pick<LibraryPolicies, 'allowedExtensions' | 'maxFileSizeMB'>,
  file: { name: string; size: number },
): string | undefined {
  const allowed = policies.allowedExtensions.map((ext) => ext.replace(/^\./, '').toLowerCase());
  const ext = extensionOf(file.name);
  if (allowed.length > 0 && !allowed.includes(ext)) {
    return `File type ".${ext}" not allowed. Allowed types: ${allowed.join(', ')}`;
  }
  if (policies.maxFileSizeMB !== null && file.size > policies.maxFileSizeMB * MIB) {
    return `File too large (${megabytes(file.size)}MB). Maximum allowed: ${String(policies.maxFileSizeMB)}MB`;
  }
  return undefined;
}

/** The configured upload limits (UPLOAD_MAX_FILE_SIZE_BYTES, UPLOAD_ALLOWED_FILE_TYPES). */
export interface UploadLimits {
  maxFileSize: number;
  /** MIME types ('application/pdf', 'image/*'), extensions with or without the dot, or '*' for all. */
  allowedFileTypes: readonly string[];
}

/** Whether a configured type list allows the file: by MIME type (with 'type/*'), '.ext' or 'ext'; '*' allows all. */
export function fileTypeAllowed(
  allowedFileTypes: readonly string[],
  file: { name: string; mimeType: string },
): boolean {
  const ext = extensionOf(file.name);
  const mime = file.mimeType.toLowerCase();
  return allowedFileTypes.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (entry === '*' || entry === '*/*') return true;
    if (entry.includes('/')) {
      return entry.endsWith('/*') ? mime.startsWith(entry.slice(0, -1)) : mime === entry;
    }
    return ext !== '' && entry.replace(/^\./, '') === ext;
  });
}

/** The configured limits' refusal: 'File exceeds maximum allowed size' or 'File type not allowed'; or undefined. */
export function configuredLimitRefusal(
  limits: UploadLimits,
  file: { name: string; mimeType: string; size: number },
): 'File exceeds maximum allowed size' | 'File type not allowed' | undefined {
  if (file.size > limits.maxFileSize) return 'File exceeds maximum allowed size';
  if (!fileTypeAllowed(limits.allowedFileTypes, file)) return 'File type not allowed';
  return undefined;
}

/** How many parts of `partSize` a file of `size` bytes is sent in (at least one). */
export const partCount = (size: number, partSize: number = UPLOAD_PART_SIZE): number =>
  Math.max(Math.ceil(size / partSize), 1);

/** What content sniffing (the `file-type` package) found in a file's first bytes; undefined when nothing known. */
export interface SniffedType {
  ext: string;
  mime: string;
}

/** Programs: never accepted under another name. */
const EXECUTABLES = new Set([
  'exe',
  'elf',
  'macho',
  'msi',
  'dll',
  'class',
  'dex',
  'wasm',
  'apk',
  'deb',
  'rpm',
]);

/** Zip containers: office documents and archives are zips, so a zip under their names is what they claim. */
const ZIP_CONTAINERS = new Set(['zip']);
const ZIP_CLAIMS = new Set(['document', 'spreadsheet', 'presentation', 'archive']);

export type SniffVerdict =
  | { verdict: 'accept' }
  /** The content is of the same kind but another format (a PNG named .jpg): kept, and flagged with what it is. */
  | { verdict: 'flag'; flag: string }
  | { verdict: 'refuse'; message: string };

/**
 * The sniffing rule (docs/drive.md "Uploads", ADR 0043). Bytes nothing recognises (text, CSV, JSON, code, unknown
 * formats) pass: only a known binary signature can contradict a name. A program under any other name is refused. A
 * recognised type of another class than the name's (an executable or a zip named .pdf, a PDF named .jpg) is
 * refused; a zip under an office or archive name passes (they are zips). The same class in another format is
 * accepted and flagged. A name with no known class (.bin, .dat, no extension) accepts any content.
 */
export function sniffVerdict(name: string, sniffed: SniffedType | undefined): SniffVerdict {
  if (!sniffed) return { verdict: 'accept' };
  const ext = extensionOf(name);
  if (sniffed.ext === ext) return { verdict: 'accept' };
  const refuse = (): SniffVerdict => ({
    verdict: 'refuse',
    message:
      `The file's content does not match its name: "${name}" contains ${sniffed.ext.toUpperCase()} data ` +
      `(${sniffed.mime}), not what .${ext || '(no extension)'} promises. Rename it or upload the right file.`,
  });
  if (EXECUTABLES.has(sniffed.ext)) return refuse();
  const claimed = fileTypeClass(name);
  if (claimed === 'other') return { verdict: 'accept' };
  if (ZIP_CONTAINERS.has(sniffed.ext) && ZIP_CLAIMS.has(claimed)) return { verdict: 'accept' };
  const actual = fileTypeClass(`x.${sniffed.ext}`, sniffed.mime);
  if (actual === claimed) return { verdict: 'flag', flag: `${sniffed.ext} (${sniffed.mime})` };
  return refuse();
}
