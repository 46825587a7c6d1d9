// File and folder names (drive.md §5): names are cut to 255 characters, a duplicate in the same drive, library and
// folder gets ' (2)', ' (3)', ..., and folder slugs are lower-case words joined by hyphens.
import { MAX_NAME_LENGTH } from './constants.js';
import { extensionOf } from './file-types.js';

/**
 * A name safe to keep and show: no path separators or control characters, no leading or trailing spaces or dots,
 * at most 255 characters (the extension kept when the stem is cut). Blank after all that: 'Untitled'.
 */
export function sanitiseName(raw: string): string {
  const cleaned = raw
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f/\\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .trim();
  const name = cleaned === '' ? 'Untitled' : cleaned;
  const chars = Array.from(name);
  if (chars.length <= MAX_NAME_LENGTH) return name;
  const ext = extensionOf(name);
  if (ext === '' || ext.length > 20) return chars.slice(0, MAX_NAME_LENGTH).join('').trimEnd();
  const stem = chars
    .slice(0, MAX_NAME_LENGTH - ext.length - 1)
    .join('')
    .trimEnd();
  return `${stem}.${ext}`;
}

/** The stem and extension part of a name ('Report.pdf' → ['Report', '.pdf']; 'README' → ['README', '']). */
function splitName(name: string): [string, string] {
  const ext = extensionOf(name);
  return ext === ''
    ? [name, '']
    : [name.slice(0, name.length - ext.length - 1), name.slice(name.length - ext.length - 1)];
}

/**
 * `name`, or the first of 'name (2)', 'name (3)', ... (before the extension) whose lower-case form is not taken,
 * still within 255 characters.
 */
export function uniqueName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name.toLowerCase())) return name;
  const [stem, ext] = splitName(name);
  for (let n = 2; ; n += 1) {
    const suffix = ` (${String(n)})${ext}`;
    const room = MAX_NAME_LENGTH - Array.from(suffix).length;
    const candidate = `${Array.from(stem).slice(0, room).join('')}${suffix}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** The stem a duplicate search starts from ('Report (2).pdf' and 'Report.pdf' both start with 'Report'). */
export const nameStem = (name: string): string => splitName(name)[0];

/** A folder slug: lower-cased, punctuation removed, spaces to hyphens (drive.md §5). */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/[\s-]+/g, '-');
}
