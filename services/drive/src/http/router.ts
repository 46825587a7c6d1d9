import { ApiRouter } from '@workspace/kit';
import { regionGuard } from '../commands/region.js';
import type { DriveDeps } from '../drive-deps.js';

/** Every drive router: a tenant of another region is refused before any route runs (commands/region.ts). */
export function driveRouter(deps: DriveDeps): ApiRouter {
  const api = new ApiRouter();
  api.router.use(regionGuard(deps));
  return api;
}
