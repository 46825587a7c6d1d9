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

/** An actor by name when the directory knows them, else by id. */
export function actorName(actorId: string, people: ReadonlyMap<string, AuditActor>): string {
  const person = people.get(actorId);
  return person ? person.displayName || person.fullName || person.email || actorId : actorId;
}
