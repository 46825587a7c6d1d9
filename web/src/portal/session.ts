import { problemDetail } from '../ui/problem';

/** The portal session as the bff describes it (GET /api/portal/session). The cookie itself is httpOnly. */
export interface PortalSession {
  subcontractorId: string;
  tenant: { id: string; name: string };
  /** Sent back as x-csrf-token on every state-changing call (logout included). */
  csrfToken: string;
  expiresAt: string;
}

/**
 * The portal session is kept locally in the browser (workspace.md "Subcontractor portal shell"): its description
 * (tenant, subcontractor id, expiry, the CSRF token; never a credential, the session cookie stays httpOnly) lives in
 * localStorage under this key, so a reload or a second tab opens the portal at once with its header, and the bff
 * confirms it in the background. Logout, an ended session or an expiry removes it.
 */
export const PORTAL_SESSION_KEY = 'workspace.portal.session';

export const SOMETHING_WRONG = 'Something went wrong. Please try again.';

/** Fired when a portal call answers 401: the session ended (signed out elsewhere, expired or revoked). */
export const SESSION_ENDED_EVENT = 'workspace:portal-session-ended';

/**
 * A page that comes back into view re-checks its session at most this often (and one check at a time): a phone
 * switching between apps fires visibilitychange and focus together, and often.
 */
export const SESSION_RECHECK_MS = 5_000;

/** The longest delay a browser timer takes (2^31 − 1 ms, about 24.8 days); a later expiry re-arms on the way. */
const LONGEST_TIMER_MS = 2_147_483_647;

function isSession(value: unknown): value is PortalSession {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<PortalSession>;
  return (
    typeof candidate.subcontractorId === 'string' &&
    typeof candidate.csrfToken === 'string' &&
    typeof candidate.expiresAt === 'string' &&
    typeof candidate.tenant?.id === 'string' &&
    typeof candidate.tenant.name === 'string'
  );
}

/** The locally kept session, unless there is none, it is unreadable or it has expired. */
export function storedSession(now = Date.now()): PortalSession | null {
  try {
    const raw = window.localStorage.getItem(PORTAL_SESSION_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    if (!isSession(parsed) || Date.parse(parsed.expiresAt) <= now) {
      window.localStorage.removeItem(PORTAL_SESSION_KEY);
      return null;
    }
    return parsed;
  } catch {
    return null;
  }
}

export function storeSession(session: PortalSession): void {
  try {
    window.localStorage.setItem(PORTAL_SESSION_KEY, JSON.stringify(session));
  } catch {
    // Storage full or refused (private mode): the portal still works from the cookie, reloads ask the bff.
  }
}

export function forgetSession(): void {
  try {
    window.localStorage.removeItem(PORTAL_SESSION_KEY);
  } catch {
    // Nothing to forget.
  }
}

/** Ends the locally kept session and tells the shell, which goes to /portal-login?ended=1. */
export function endSession(): void {
  forgetSession();
  window.dispatchEvent(new Event(SESSION_ENDED_EVENT));
}

/** Asks the bff for this browser's portal session; null when there is none (401). */
export async function fetchSession(): Promise<PortalSession | null> {
  const response = await fetch('/api/portal/session', { credentials: 'same-origin' });
  if (!response.ok) return null;
  return (await response.json()) as PortalSession;
}

/** cis's refusal of a session whose subcontractor's portal access has ended (revoked, archived, deleted). */
async function accessEnded(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => ({}))) as { code?: unknown };
  return body.code === 'portal_access_ended';
}

/**
 * A call of the portal's API; a 401 (no session) or cis's 403 `portal_access_ended` ends the locally kept session
 * and switches the page to 'session ended' (the shell then goes to /portal-login?ended=1).
 */
export async function portalFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(path, { credentials: 'same-origin', ...init });
  if (response.status === 401 || (await accessEnded(response))) endSession();
  return response;
}

/**
 * Ends the session at its expiry while the page is open (a timer to `expiresAt`; at once when it has passed). Returns
 * the cancel. The timer is re-armed when it fires early (a far expiry, or a phone that slept).
 */
export function endAtExpiry(expiresAt: string): () => void {
  const expires = Date.parse(expiresAt);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    const left = expires - Date.now();
    timer = setTimeout(
      () => {
        if (Date.now() >= expires) endSession();
        else arm();
      },
      Math.min(Math.max(left, 0), LONGEST_TIMER_MS),
    );
  };
  arm();
  return () => {
    clearTimeout(timer);
  };
}

/**
 * The re-check a page makes when it comes back into view (visibilitychange to visible, focus, a page restored from
 * the back-forward cache): the expiry, the bff's session (GET /api/portal/session: 401 once signed out elsewhere,
 * expired, or ended by identity) and then cis's answer for it (`confirm`, a portal call through portalFetch: 403
 * `portal_access_ended` at once when access is revoked, or the subcontractor archived or deleted). Either refusal
 * ends the session. One check at a time, at most one every SESSION_RECHECK_MS; a network failure (no signal on site)
 * ends nothing. Returns the trigger.
 */
export function sessionRecheck(
  session: () => PortalSession,
  confirm: () => Promise<void>,
  refreshed: (current: PortalSession) => void,
): () => void {
  let inFlight = false;
  let last = Number.NEGATIVE_INFINITY;
  const check = async () => {
    if (Date.parse(session().expiresAt) <= Date.now()) {
      endSession();
      return;
    }
    const response = await portalFetch('/api/portal/session');
    if (!response.ok) return;
    const current = (await response.json()) as PortalSession;
    storeSession(current);
    refreshed(current);
    await confirm();
  };
  return () => {
    if (document.visibilityState !== 'visible' || inFlight) return;
    if (Date.now() - last < SESSION_RECHECK_MS) return;
    inFlight = true;
    last = Date.now();
    check()
      .catch(() => undefined)
      .finally(() => {
        inFlight = false;
      });
  };
}

/** A GET of the portal's API as JSON; a failure throws the problem's detail (or the generic message). */
export async function portalJson<T>(path: string): Promise<T> {
  const response = await portalFetch(path);
  if (!response.ok) throw new Error(await problemDetail(response, SOMETHING_WRONG));
  return (await response.json()) as T;
}
