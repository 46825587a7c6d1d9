import type { CisDeps } from '../cis-deps.js';

/**
 * The names of the people behind activity entries (issue 13: other users' activity shown with their name), looked up
 * at identity with the reader's own token, only when an entry was made by someone else. A reader identity will not
 * list users to (no users.view) gets none: the entries then say 'by another user'.
 */
export async function performerNames(
  deps: CisDeps,
  reader: { userId: string; authorization: string },
  performers: readonly string[],
): Promise<Map<string, string>> {
  const others = performers.filter((id) => id && id !== reader.userId && id !== 'system');
  if (others.length === 0) return new Map();
  const names = await deps.identity.userNames(reader.authorization);
  return new Map(others.flatMap((id) => (names.get(id) ? [[id, names.get(id) ?? '']] : [])));
}
