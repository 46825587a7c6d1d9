import { HttpProblem } from '@workspace/kit';
import type { ErrorRequestHandler } from 'express';
import type { CisDeps } from '../cis-deps.js';

/**
 * Records refused and failed requests as the spec's audit actions: a 403 as cis.permission.denied, a 5xx as
 * cis.error (the cause stays in the log). Audit failures are swallowed with a warning (cis.md section 7).
 */
export function auditFailures(deps: CisDeps): ErrorRequestHandler {
  return (error: unknown, req, _res, next) => {
    const status = error instanceof HttpProblem ? error.status : 500;
    const ctx = req.ctx;
    if (ctx && (status === 403 || status >= 500)) {
      const action = status === 403 ? 'cis.permission.denied' : 'cis.error';
      void deps
        .inTenant(ctx.tenantId, (trx) =>
          deps.audit.write(trx, ctx, action, {
            targetType: status === 403 ? 'permission' : 'error',
            summary:
              status === 403
                ? `Permission denied: ${req.method} ${req.path}`
                : `Error on ${req.method} ${req.path}`,
            details: {
              method: req.method,
              path: req.path,
              status,
              ...(error instanceof HttpProblem && error.detail ? { reason: error.detail } : {}),
            },
          }),
        )
        .catch((auditError: unknown) => {
          deps.logger.warn({ err: auditError }, 'audit entry could not be written');
        });
    }
    next(error);
  };
}
