// Folders in the address (drive.md §2): /drive/folders/{slug chain}; the breadcrumb is the chain's folders.
import type { Folder } from '../api/types';

/** The folders of a slug chain, root first; undefined when a slug does not match. */
export function resolveSlugChain(folders: readonly Folder[], slugs: readonly string[]): Folder[] | undefined {
  const chain: Folder[] = [];
  let parentId: string | null = null;
  for (const slug of slugs) {
    const found = folders.find((folder) => folder.parentId === parentId && folder.slug === slug);
    if (!found) return undefined;
    chain.push(found);
    parentId = found.id;
  }
  return chain;
}

/** The address of a folder chain's last folder ('/drive/folders/a/b'). */
export const folderPath = (chain: readonly { slug: string }[]) =>
  ['/drive/folders', ...chain.map((folder) => encodeURIComponent(folder.slug))].join('/');

/** A folder's ancestors and itself, root first (from its ancestors' ids). */
export function folderChain(folders: readonly Folder[], folder: Folder | undefined): Folder[] {
  if (!folder) return [];
  const byId = new Map(folders.map((item) => [item.id, item]));
  const chain = folder.ancestors.map((id) => byId.get(id)).filter((item): item is Folder => !!item);
  return [...chain, folder];
}
