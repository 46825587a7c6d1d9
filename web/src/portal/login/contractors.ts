/**
 * The contractors this browser has signed in to (ADR 0055): kept after each sign-in so a returning subcontractor
 * can ask for a fresh link with one tap. Only the contractor's code (the tenant id, as in every portal link) and
 * name; never an address or a credential. Most recent first, at most five.
 */
export interface RememberedContractor {
  id: string;
  name: string;
}

export const CONTRACTORS_KEY = 'workspace.portal.contractors';
const MAX_REMEMBERED = 5;

function isContractor(value: unknown): value is RememberedContractor {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<RememberedContractor>;
  return typeof candidate.id === 'string' && typeof candidate.name === 'string';
}

export function rememberedContractors(): RememberedContractor[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(CONTRACTORS_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isContractor).slice(0, MAX_REMEMBERED) : [];
  } catch {
    return [];
  }
}

export function rememberContractor(contractor: RememberedContractor): void {
  const others = rememberedContractors().filter((known) => known.id !== contractor.id);
  try {
    window.localStorage.setItem(
      CONTRACTORS_KEY,
      JSON.stringify([{ id: contractor.id, name: contractor.name }, ...others].slice(0, MAX_REMEMBERED)),
    );
  } catch {
    // Storage refused (private mode): the contractor code is asked for next time.
  }
}

/** A contractor code as the bff accepts it (the tenant id). */
export const CONTRACTOR_CODE = /^[a-z0-9][a-z0-9_-]{0,62}$/;
