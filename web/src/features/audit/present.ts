// How the audit log shows an entry's actor and source (pure: unit tested).

/** A colleague as the directory names them (identity's GET /v1/users/directory, forwarded by the bff). */
export interface AuditActor {
  uid: string;
  displayName: string;
  fullName: string;
  email: string;
  username: string;
}

/** Where an entry came from: a service's CloudEvents source ('/workspace/cis') or the browser (audit_logEvent). */
export function sourceLabel(source: string): string {
  if (source === 'client') return 'Browser';
  const service = /^\/workspace\/([a-z-]+)/.exec(source)?.[1];
  return service ? `${service} service` : source;
}

/**
 * An actor by name when the directory knows them; an event that names no person (a scheduled scan's notice), which
 * the audit service records as 'system', as System; a subcontractor in the portal (`portal:<subcontractorId>`, or identity's `portal`
 * for the one redeeming a sign-in link; the staff directory lists neither) as Subcontractor (portal); else by id.
 */
export function actorName(actorId: string, people: ReadonlyMap<string, AuditActor>): string {
  const person = people.get(actorId);
  if (person) return person.displayName || person.fullName || person.email || actorId;
  if (actorId === 'system') return 'System';
  if (/^portal(:.+)?$/.test(actorId)) return 'Subcontractor (portal)';
  return actorId;
}
