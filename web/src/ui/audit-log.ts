// The spec's audit_logEvent (workspace.md §7 "Callable functions"): a client-side action (a link copied, an export
// made in the browser) written to the tenant's audit trail through the bff's POST /api/audit/client-events. The
// tenant and the actor are the session's (the bff sends the user's token; the audit service reads both from it), so
// the call names neither. "Its response is not shown. Failures are swallowed with a warning": the returned promise
// always resolves, and the action that logged never waits on the audit service to fail or succeed.
import { currentCsrfToken } from '../app/api';

/** Where the browser sends an audit event (the bff forwards it to the audit service's /v1/client-events). */
export const AUDIT_EVENTS_PATH = '/api/audit/client-events';

/** How often a send is tried in all (the first try and two retries, 1 s then 2 s later). */
export const AUDIT_ATTEMPTS = 3;
const RETRY_DELAYS_MS = [1000, 2000];

/** What the helper needs from the browser (a test gives its own). */
export interface AuditLogDeps {
  fetch: typeof fetch;
  csrfToken: () => string;
  /** A fresh key per event: every retry of it carries the same one, so the audit service stores it once. */
  newKey: () => string;
  wait: (ms: number) => Promise<void>;
  warn: (message: string, detail?: unknown) => void;
}

export const browserAuditLogDeps: AuditLogDeps = {
  fetch: (...args) => fetch(...args),
  csrfToken: currentCsrfToken,
  newKey: () => crypto.randomUUID(),
  wait: (ms) =>
    new Promise((resolve) => {
      setTimeout(resolve, ms);
    }),
  warn: (message, detail) => {
    // eslint-disable-next-line no-console -- the spec's warning for a failed audit_logEvent
    console.warn(message, detail);
  },
};

/** A refusal that trying again cannot change (bad input, no session, no permission): not retried. */
const final = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

/**
 * Logs a client-side action to the audit trail: `action` as the spec names it ('SHARE_LINK_COPIED',
 * 'cis.export.invoices'), `targetId` what it was done to, `payload` identifiers only (never personal details: the
 * chain must survive a person's erasure). Never throws and never rejects: a failed send is retried twice (the same
 * idempotency key) when it may pass later, then `console.warn`ed and dropped.
 */
export async function logAuditEvent(
  action: string,
  targetId: string,
  payload: Record<string, string> = {},
  deps: AuditLogDeps = browserAuditLogDeps,
): Promise<void> {
  let failure: unknown;
  try {
    const key = deps.newKey();
    for (let attempt = 0; attempt < AUDIT_ATTEMPTS; attempt++) {
      if (attempt > 0) await deps.wait(RETRY_DELAYS_MS[attempt - 1] ?? 2000);
      try {
        const response = await deps.fetch(AUDIT_EVENTS_PATH, {
          method: 'POST',
          credentials: 'same-origin',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'x-csrf-token': deps.csrfToken(),
            'x-idempotency-key': key,
          },
          body: JSON.stringify({ action, targetId, payload }),
        });
        if (response.ok) return;
        failure = new Error(`HTTP ${response.status}`);
        if (final(response.status)) break;
      } catch (error) {
        failure = error;
      }
    }
  } catch (error) {
    failure = error;
  }
  try {
    deps.warn(`Audit event ${action} could not be logged`, failure);
  } catch {
    // Even the warning failed: still nothing reaches the caller.
  }
}
