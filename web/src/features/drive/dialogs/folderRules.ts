// The folder dialogs' rules (drive.md §2, §4, §5, §9): the colour swatches and when a save is sent.
import type { FolderColour } from '@workspace/drive/domain';

/** The dialog's swatches: the default (primary) and the seven hex choices, in the spec's order. */
export const FOLDER_SWATCHES: readonly { colour: FolderColour; hex: string | null }[] = [
  { colour: 'primary', hex: null },
  { colour: 'blue', hex: '#3B82F6' },
  { colour: 'purple', hex: '#8B5CF6' },
  { colour: 'pink', hex: '#EC4899' },
  { colour: 'amber', hex: '#F59E0B' },
  { colour: 'red', hex: '#EF4444' },
  { colour: 'green', hex: '#10B981' },
  { colour: 'teal', hex: '#6366F1' },
];

export const folderHex = (colour: FolderColour, primary: string) =>
  FOLDER_SWATCHES.find((swatch) => swatch.colour === colour)?.hex ?? primary;

/**
 * Whether Save sends anything: not while a save is in progress, not with a blank name (after trimming), and not
 * when the trimmed name and the colour are unchanged.
 */
export function folderSaveNeeded(
  before: { name: string; color: FolderColour } | undefined,
  after: { name: string; color: FolderColour },
  saving: boolean,
): boolean {
  if (saving || !after.name.trim()) return false;
  if (!before) return true;
  return before.name !== after.name.trim() || before.color !== after.color;
}
