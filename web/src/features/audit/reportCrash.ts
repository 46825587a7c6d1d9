// "The error has been reported" (cis.md §3, the module error boundary): a crash of the CIS screens is reported to the
// tenant's audit trail as cis.error through audit_logEvent (identifiers only: the error's kind and the page, never its
// message, which may quote what was on screen), and to the console as before.
import type { ErrorInfo } from 'react';
import { logAuditEvent } from '../../ui/audit-log';

/** The shell's error reporter for a module's boundary: the console, and the audit trail for the CIS module. */
export function moduleCrashReporter(moduleId: string) {
  return (error: Error, info: ErrorInfo): void => {
    // eslint-disable-next-line no-console -- the browser console keeps the stack for whoever debugs it
    console.error(error, info.componentStack);
    if (moduleId === 'cis')
      void logAuditEvent('cis.error', window.location.pathname, {
        kind: error.name,
        page: window.location.pathname,
      });
  };
}
