// The bff in `make up` (deploy/local/embedded.ts): the origin browsers open, serving the built web bundles.
import type { EmbeddedService } from '@workspace/kit/embedding';
import { startBff } from './app.js';
import { bffConfigSchema } from './config.js';

export const embedded: EmbeddedService = {
  name: 'bff',
  port: 8080,
  public: true,
  after: ['identity', 'cis', 'drive', 'notification', 'audit'],
  async start(context) {
    const config = bffConfigSchema.parse({
      ...context.env,
      PORT: String(embedded.port),
      IDENTITY_URL: context.urlOf('identity'),
      INTERNAL_API_TOKEN: context.secret('internalToken'),
      PUBLIC_URL: context.publicUrl,
      SESSION_SECRET: context.secret('sessionSecret'),
      STATIC_DIR: context.webDist,
      DEFAULT_TENANT: context.demoTenantId,
      CIS_URL: context.urlOf('cis'),
      DRIVE_URL: context.urlOf('drive'),
      AUDIT_URL: context.urlOf('audit'),
      // The site's project requests (docs/site.md).
      NOTIFICATION_URL: context.urlOf('notification'),
      // The object store browsers reach (the drive's presigned URLs point there): the CSP allows it (ADR 0049).
      OBJECT_STORE_PUBLIC_URL: context.env.OBJECT_STORE_PUBLIC_URL ?? context.env.MINIO_ENDPOINT,
    });
    return startBff(config, { logger: context.logger });
  },
};
