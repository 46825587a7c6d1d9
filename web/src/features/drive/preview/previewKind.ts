// What the preview shows for a file (drive.md §2): PDF embedded, image, CSV as a table, text/code/JSON as text (JSON
// pretty-printed), video and audio players; anything else the not-available panel.
import { extensionOf, fileTypeClass } from '@workspace/drive/domain';

export type PreviewKind = 'pdf' | 'image' | 'csv' | 'json' | 'text' | 'video' | 'audio' | 'none';

const TEXT_EXTENSIONS = new Set([
  'txt',
  'md',
  'log',
  'js',
  'ts',
  'tsx',
  'jsx',
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
  'ini',
  'toml',
  'tsv',
]);

export function previewKind(file: { name: string; mimeType?: string }): PreviewKind {
  const ext = extensionOf(file.name);
  const mime = (file.mimeType ?? '').toLowerCase();
  if (ext === 'csv' || mime === 'text/csv') return 'csv';
  if (ext === 'json' || mime === 'application/json') return 'json';
  if (TEXT_EXTENSIONS.has(ext) || mime.startsWith('text/')) return 'text';
  switch (fileTypeClass(file.name, mime)) {
    case 'pdf':
      return 'pdf';
    case 'image':
      return 'image';
    case 'video':
      return 'video';
    case 'audio':
      return 'audio';
    default:
      return 'none';
  }
}

/** JSON pretty-printed (two spaces); text that is not JSON as it is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
