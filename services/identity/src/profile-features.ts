// What identity serves about each user beside their account: their public key (ADR 0026) and their avatar (the
// spec's avatar cache). Wired into the service definition (service.ts) in one place.

import type { ApiRouter, BackgroundWorker, FieldCipher, ServiceDeps } from '@workspace/kit';
import {
  AvatarCache,
  AvatarCleanupWorker,
  avatarRoutes,
  httpPhotoFetcher,
  type FetchPhoto,
} from './avatars.js';
import type { IdentityConfig } from './config.js';
import type { IdentityContext } from './context.js';
import { backfillUserKeys, userKeyRoutes } from './user-keys.js';

export interface ProfileFeatures {
  avatars: AvatarCache;
  /** At start: gives users created before migration 005 their key pair. */
  setup(deps: ServiceDeps<IdentityConfig>): Promise<void>;
  workers(deps: ServiceDeps<IdentityConfig>): BackgroundWorker[];
  routes(context: IdentityContext): { basePath: string; api: ApiRouter }[];
}

export function profileFeatures(
  config: IdentityConfig,
  cipher: FieldCipher,
  // Profile photos are fetched over https; plain http only where the IdP may be too (local development, tests).
  fetchPhoto: FetchPhoto = httpPhotoFetcher({ allowHttp: config.OIDC_ALLOW_HTTP }),
): ProfileFeatures {
  const avatars = new AvatarCache(fetchPhoto);
  return {
    avatars,
    async setup(deps) {
      await backfillUserKeys(deps.db, cipher, deps.logger);
    },
    workers: (deps) => [new AvatarCleanupWorker(avatars, deps.logger.child({ component: 'avatars' }))],
    routes: (context) => [
      { basePath: '/v1', api: userKeyRoutes(context) },
      { basePath: '/v1', api: avatarRoutes(context, avatars) },
    ],
  };
}
