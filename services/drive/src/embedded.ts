// drive in `make up` (deploy/local/embedded.ts): the region uk, its objects in the local MinIO up.sh started, the CIS
// documents filed from cis (the token both hold is a local secret).
import { startService } from '@workspace/kit';
import type { EmbeddedService } from '@workspace/kit/embedding';
import { driveConfigSchema } from './config.js';
import { driveService } from './service.js';

export const embedded: EmbeddedService = {
  name: 'drive',
  port: 8084,
  after: ['identity', 'cis'],
  note: 'internal; OpenAPI at /openapi.json',
  async start(context) {
    const identityUrl = context.urlOf('identity');
    const config = driveConfigSchema.parse({
      ...(await context.serviceEnv({ schema: 'drive', role: 'svc_drive', extensions: ['pg_trgm'] })),
      IDENTITY_URL: identityUrl,
      DRIVE_REGION: 'uk',
      OBJECT_STORE_URL: context.env.MINIO_ENDPOINT ?? 'http://127.0.0.1:19000',
      OBJECT_STORE_ACCESS_KEY: context.env.MINIO_ROOT_USER ?? 'workspace',
      OBJECT_STORE_SECRET_KEY: context.env.MINIO_ROOT_PASSWORD ?? 'workspace-local-secret',
      CIS_URL: context.urlOf('cis'),
      CIS_DOCUMENTS_TOKEN: context.secret('cisDocumentsToken'),
      // Share links' viewer tokens survive a restart of make up.
      SHARE_LINK_SECRET: context.secret('shareLinkSecret'),
    });
    return startService(driveService(config), config, { bus: context.bus, logger: context.logger });
  },
};
