import type { CisDeps } from '../cis-deps.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The names of the people behind activity entries (issue 13: other users' activity shown with their name), looked up
 * at identity (GET /v1/users/names, open to any member of the tenant) with the reader's own token, only for entries
 * made by someone else. If identity cannot answer, the entries say 'by another user'.
 */
export async function performerNames(
  deps: CisDeps,
  reader: { userId: string; authorization: string },
  performers: readonly string[],
): Promise<Map<string, string>> {
  const others = [...new Set(performers)].filter((id) => UUID.test(id) && id !== reader.userId);
  if (others.length === 0) return new Map();
  const names = await deps.identity.userNames(reader.authorization, others);
  return new Map(others.flatMap((id) => (names.get(id) ? [[id, names.get(id) ?? '']] : [])));
}
