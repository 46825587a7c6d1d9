import { HttpProblem, problems, UpstreamProblem } from '@workspace/kit';
import type { RequestHandler } from 'express';
import type { DriveDeps } from '../drive-deps.js';

/**
 * Refuses a tenant whose data lives in another region (deploy/k8s/README.md: a release per region, with its own
 * PostgreSQL, Kafka and object store), so no object of theirs is written to or read from this region.
 */
export async function requireTenantInRegion(deps: DriveDeps, tenantId: string): Promise<void> {
  let region: string;
  try {
    region = await deps.identity.region(tenantId);
  } catch (error) {
    // No such tenant (a share link's ?tenantId= is anyone's to type): nothing of theirs is here.
    if (error instanceof UpstreamProblem && error.upstream.status === 404)
      throw problems.notFound('Not found.');
    deps.logger.warn({ err: error, tenantId }, 'tenant region unknown');
    throw problems.unavailable(
      'The drive cannot tell which region this organisation’s data lives in (identity is unavailable). Try again shortly.',
    );
  }
  if (region !== deps.config.DRIVE_REGION) {
    throw new HttpProblem(
      421,
      'wrong_region',
      `This organisation’s data lives in region ${region}; this is the ${deps.config.DRIVE_REGION} drive. ` +
        `Use the ${region} service.`,
    );
  }
}

/** The region check for every signed-in request of a router (public share routes check the share's tenant). */
export function regionGuard(deps: DriveDeps): RequestHandler {
  return (req, _res, next) => {
    // The public share routes check the share's tenant, not a visitor's (who may belong to any tenant).
    if (!req.ctx || req.path.startsWith('/public/')) {
      next();
      return;
    }
    requireTenantInRegion(deps, req.ctx.tenantId).then(() => {
      next();
    }, next);
  };
}
