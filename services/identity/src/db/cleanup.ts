import type { Knex } from '@workspace/kit';

/**
 * Deletes expired refresh sessions and portal links of every tenant through `delete_expired_sessions_and_links()`
 * (migration 007): a `SECURITY DEFINER` function of the schema owner, whose policies alone show it expired rows of
 * every tenant. The runtime role has no bypass of its own. Takes `Knex`: it works across tenants.
 */
export async function deleteExpiredTenantRows(
  db: Knex,
): Promise<{ refreshSessions: number; portalLinks: number }> {
  const { rows } = await db.raw<{ rows: { refresh_sessions: number; portal_links: number }[] }>(
    'SELECT refresh_sessions, portal_links FROM delete_expired_sessions_and_links()',
  );
  return { refreshSessions: rows[0]?.refresh_sessions ?? 0, portalLinks: rows[0]?.portal_links ?? 0 };
}
