import type { CisDeps } from '../cis-deps.js';
import { SubcontractorStore } from '../db/subcontractors.store.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A portal session acts as `portal:<subcontractor id>` (identity's portal token subject). */
const PORTAL = /^portal:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

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

/** Who did it, as the reader of an activity entry reads it: the name (when there is one to show) and the words. */
export interface Performer {
  /** Another user's name, or the subcontractor's for their own portal actions; null for the reader, jobs, unknowns. */
  name: string | null;
  /** 'by you', 'by the system', 'by <name>', 'by another user', 'by <name> (portal)', 'by a subcontractor (portal)'. */
  label: string;
}

/** The words for a subcontractor acting in the portal; null when the record is gone (deleted) or never was. */
const portalLabel = (name: string | null) => (name ? `by ${name} (portal)` : 'by a subcontractor (portal)');

/**
 * The one place that decides how the performer of an activity entry reads (the CIS dashboard's Recent Activity and
 * the activity log): the reader's own entries 'by you'; jobs 'by the system'; another user by the name identity lets
 * the reader see ('by another user' when it cannot); a subcontractor's own portal actions (`portal:<id>`) by their
 * name from cis's own store, archived or not, marked '(portal)', and 'by a subcontractor (portal)' once the
 * subcontractor is deleted. Only the name is read: never an identifier such as the UTR or NINO.
 */
export async function performers(
  deps: CisDeps,
  reader: { tenantId: string; userId: string; authorization: string },
  performedBy: readonly string[],
): Promise<Map<string, Performer>> {
  const distinct = [...new Set(performedBy)];
  const portalIds = distinct.flatMap((id) => {
    const match = PORTAL.exec(id);
    return match?.[1] ? [match[1]] : [];
  });
  const [userNames, subcontractors] = await Promise.all([
    performerNames(deps, reader, distinct),
    portalIds.length === 0
      ? Promise.resolve([])
      : deps.inTenant(reader.tenantId, (trx) => new SubcontractorStore(trx).byIds(portalIds)),
  ]);
  const subcontractorNames = new Map(
    subcontractors.map((row) => [row.id, row.deletedAt ? null : row.name || null] as const),
  );
  const performerOf = (id: string): Performer => {
    if (id === reader.userId) return { name: null, label: 'by you' };
    if (id === 'system') return { name: null, label: 'by the system' };
    const portal = PORTAL.exec(id)?.[1];
    if (portal) {
      const name = subcontractorNames.get(portal) ?? null;
      return { name, label: portalLabel(name) };
    }
    const name = userNames.get(id) ?? null;
    return { name, label: name ? `by ${name}` : 'by another user' };
  };
  return new Map(distinct.map((id) => [id, performerOf(id)]));
}
