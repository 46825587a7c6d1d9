// File types (drive.md §9): the class a file belongs to, from its extension first and its MIME type second, and the
// usage counter (drive.md §3) its bytes are added to.
import type { FileTypeClass, UsageCounter } from './constants.js';

const BY_EXTENSION: Readonly<Record<string, FileTypeClass>> = {
  pdf: 'pdf',
  ...Object.fromEntries(
    ['jpg', 'jpeg', 'png', 'gif', 'webp', 'bmp', 'svg', 'tif', 'tiff', 'heic', 'avif', 'ico'].map((e) => [
      e,
      'image',
    ]),
  ),
  ...Object.fromEntries(['mp4', 'mov', 'avi', 'mkv', 'webm', 'm4v', 'wmv'].map((e) => [e, 'video'])),
  ...Object.fromEntries(['mp3', 'wav', 'ogg', 'oga', 'm4a', 'flac', 'aac', 'weba'].map((e) => [e, 'audio'])),
  ...Object.fromEntries(['doc', 'docx', 'odt', 'rtf', 'txt', 'md', 'pages'].map((e) => [e, 'document'])),
  ...Object.fromEntries(['xls', 'xlsx', 'ods', 'csv', 'tsv', 'numbers'].map((e) => [e, 'spreadsheet'])),
  ...Object.fromEntries(['ppt', 'pptx', 'odp', 'key'].map((e) => [e, 'presentation'])),
  ...Object.fromEntries(
    [
      'js',
      'ts',
      'tsx',
      'jsx',
      'json',
      'xml',
      'html',
      'css',
      'py',
      'java',
      'c',
      'cpp',
      'sh',
      'sql',
      'yaml',
      'yml',
    ].map((e) => [e, 'code']),
  ),
  ...Object.fromEntries(['zip', 'rar', '7z', 'tar', 'gz', 'tgz', 'bz2', 'xz'].map((e) => [e, 'archive'])),
};

/** The lower-case extension of a file name without its dot ('' when it has none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

export function fileTypeClass(name: string, mimeType = ''): FileTypeClass {
  const byExtension = BY_EXTENSION[extensionOf(name)];
  if (byExtension) return byExtension;
  const mime = mimeType.toLowerCase();
  if (mime === 'application/pdf') return 'pdf';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('text/')) return 'document';
  return 'other';
}

const COUNTER: Readonly<Record<FileTypeClass, UsageCounter>> = {
  pdf: 'pdf',
  image: 'images',
  video: 'video',
  audio: 'audio',
  document: 'documents',
  spreadsheet: 'spreadsheets',
  presentation: 'presentations',
  archive: 'archives',
  code: 'other',
  other: 'other',
};

/** The usage counter a file's bytes count under (code files count as other). */
export const usageCounter = (typeClass: FileTypeClass): UsageCounter => COUNTER[typeClass];
