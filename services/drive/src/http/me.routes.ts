import type { ApiRouter } from '@workspace/kit';
import { callerOf } from '../commands/access.js';
import { driveAbilities } from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import { abilitiesResponse } from './me.schemas.js';
import { driveRouter } from './router.js';

export function meRoutes(deps: DriveDeps): ApiRouter {
  return driveRouter(deps).route({
    method: 'get',
    path: '/me/abilities',
    summary: "The caller's drive abilities: the toolbar flags of drive.md section 6",
    responses: { 200: { description: 'Abilities', schema: abilitiesResponse } },
    handler: ({ ctx }) =>
      Promise.resolve({ abilities: driveAbilities(callerOf(ctx)), region: deps.config.DRIVE_REGION }),
  });
}
