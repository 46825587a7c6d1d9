/** What the portal answers a session whose subcontractor may no longer use it (403, code `portal_access_ended`). */
export const PORTAL_ACCESS_ENDED = 'Portal access has ended. Ask your contractor for a new invitation.';

/** The columns of a subcontractor the portal rule reads. */
export interface PortalAccessFields {
  portalAccess: boolean;
  archived: boolean;
  deletedAt: Date | null;
}

/**
 * A subcontractor may use the portal only while its portal access is on and it is neither archived nor deleted
 * (security review M3): checked on every portal call, so ending any of them ends access at the next call.
 */
export function portalAccessOpen(subcontractor: PortalAccessFields): boolean {
  return subcontractor.portalAccess && !subcontractor.archived && subcontractor.deletedAt === null;
}

/** Whether a change closed a subcontractor's portal access (its sessions and unused links are then ended). */
export function portalAccessEnded(before: PortalAccessFields, after: PortalAccessFields): boolean {
  return portalAccessOpen(before) && !portalAccessOpen(after);
}
