// Whom a file can be shared with (drive.md §2 Share dialog): every colleague but the current user, matched by
// username, display name, e-mail or full name. Pure: no React.
import type { Colleague } from './api';

/** The colleagues listed: never the current user; those matching the search when there is one. */
export function shareCandidates(
  colleagues: readonly Colleague[],
  selfUid: string,
  search: string,
): Colleague[] {
  const others = colleagues.filter((colleague) => colleague.uid !== selfUid);
  const term = search.trim().toLowerCase();
  if (!term) return others;
  return others.filter((colleague) =>
    [colleague.username, colleague.displayName, colleague.email, colleague.fullName].some((field) =>
      field.toLowerCase().includes(term),
    ),
  );
}

/** The list's empty text: no match for the search, or nobody else in the organisation. */
export function emptyCandidatesText(othersCount: number): string {
  return othersCount === 0 ? 'No other users in organization' : 'No users found';
}

export const usersAvailable = (n: number) => `${String(n)} user(s) available`;
export const usersSelected = (n: number) => `${String(n)} user(s) selected`;
export const shareWithLabel = (n: number) => `Share with ${String(n)} user(s)`;
