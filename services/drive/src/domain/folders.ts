// Folder rules (drive.md §3, §5): names, colours, slugs unique among siblings, ancestors and the descendant check,
// and the slug chain of a nested folder's address (/drive/folders/{slug chain}). Browser-safe.
import { FOLDER_COLOURS, type FolderColour } from './constants.js';
import { slugify } from './names.js';

/** A folder name: trimmed, 1 to 255 characters (drive.md §5: non-blank after trimming). */
export const FOLDER_NAME_MAX = 255;

export const DEFAULT_FOLDER_COLOUR: FolderColour = 'primary';

/**
 * The Edit Folder dialog's swatches (drive.md §9: 'a default plus' seven hex values), paired in the spec's order with
 * the seven named colours after primary. The drive stores the name; the dialog draws the hex. 'primary' has no hex:
 * it is the theme's primary colour.
 */
export const FOLDER_COLOUR_HEX: Readonly<Record<Exclude<FolderColour, 'primary'>, string>> = {
  blue: '#3B82F6',
  purple: '#8B5CF6',
  pink: '#EC4899',
  amber: '#F59E0B',
  red: '#EF4444',
  green: '#10B981',
  teal: '#6366F1',
};

/** What a colour field may hold: a named colour, or one of the dialog's hex swatches (any letter case). */
export function isFolderColourInput(value: string): boolean {
  return folderColourOf(value) !== undefined;
}

/** The named colour a colour field means ('#3b82f6' → 'blue', 'teal' → 'teal'); undefined when it is neither. */
export function folderColourOf(value: string): FolderColour | undefined {
  const trimmed = value.trim();
  if ((FOLDER_COLOURS as readonly string[]).includes(trimmed)) return trimmed as FolderColour;
  const upper = trimmed.toUpperCase();
  const named = Object.entries(FOLDER_COLOUR_HEX).find(([, hex]) => hex === upper);
  return named ? (named[0] as FolderColour) : undefined;
}

/** The dialog's swatch of a named colour (undefined for primary: the theme's). */
export const folderColourHex = (colour: FolderColour): string | undefined =>
  colour === 'primary' ? undefined : FOLDER_COLOUR_HEX[colour];

/** A folder name as saved: trimmed; undefined when blank (drive.md §5). */
export function folderName(raw: string): string | undefined {
  const name = raw.replace(/\s+/g, ' ').trim();
  return name === '' ? undefined : name;
}

/**
 * The slug a folder named `name` gets among siblings whose slugs are `taken`: slugify(name) ('folder' when nothing
 * of the name survives, e.g. '!!!'), then '-2', '-3', ... until free. Two sibling folders may share a name; their
 * addresses never clash.
 */
export function uniqueSlug(name: string, taken: ReadonlySet<string>): string {
  const base = slugify(name) || 'folder';
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${String(n)}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** A folder as the tree rules see it. */
export interface FolderNode {
  id: string;
  parentId: string | null;
  ancestors: readonly string[];
}

/** The ancestors of a folder placed under `parent` (root: none): the parent's ancestors, then the parent. */
export const ancestorsUnder = (parent: FolderNode | null): string[] =>
  parent ? [...parent.ancestors, parent.id] : [];

/** Whether moving `folder` under `target` would put it inside itself or one of its own sub-folders. */
export function isSelfOrDescendant(folder: Pick<FolderNode, 'id'>, target: FolderNode | null): boolean {
  if (!target) return false;
  return target.id === folder.id || target.ancestors.includes(folder.id);
}

/** The slugs of a folder address ('a/b/' → ['a', 'b']); empty segments are dropped. */
export const slugChain = (path: string): string[] =>
  path
    .split('/')
    .map((segment) => segment.trim().toLowerCase())
    .filter((segment) => segment !== '');

/** One crumb of a nested folder's breadcrumbs: the folder and the address of the chain up to it. */
export interface FolderCrumb {
  id: string;
  name: string;
  slug: string;
  path: string;
}

/** The breadcrumbs of a chain of folders, root first: each with the slug chain that opens it. */
export function breadcrumbs(chain: readonly { id: string; name: string; slug: string }[]): FolderCrumb[] {
  return chain.map((folder, index) => ({
    id: folder.id,
    name: folder.name,
    slug: folder.slug,
    path: chain
      .slice(0, index + 1)
      .map((step) => step.slug)
      .join('/'),
  }));
}
