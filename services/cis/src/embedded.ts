// cis in `make up` (deploy/local/embedded.ts), with 'Unlock (Testing)' on submitted returns available.
import { startService } from '@workspace/kit';
import type { EmbeddedService } from '@workspace/kit/embedding';
import { NotificationClient } from '@workspace/notification';
import { cisConfigSchema } from './config.js';
import { cisService } from './service.js';

export const embedded: EmbeddedService = {
  name: 'cis',
  port: 8082,
  after: ['identity', 'notification'],
  note: 'internal; OpenAPI at /openapi.json',
  async start(context) {
    const identityUrl = context.urlOf('identity');
    const config = cisConfigSchema.parse({
      ...(await context.serviceEnv({ schema: 'cis', role: 'svc_cis', extensions: ['pg_trgm'] })),
      CIS_ENCRYPTION_KEYS: context.secret('cisEncryptionKeys', 'key'),
      // 32 random bytes in hex, read as base64 (48 bytes of key): made once like the other local secrets.
      CIS_IDENTIFIER_HASH_KEY: context.secret('cisIdentifierHashKey'),
      IDENTITY_URL: identityUrl,
      NOTIFICATION_URL: context.urlOf('notification'),
      NOTIFICATION_TOKEN: context.secret('notificationToken'),
      // The drive fetches the documents cis issues with it (ADR 0046); the drive's embedded entry reads the same.
      CIS_DOCUMENTS_TOKEN: context.secret('cisDocumentsToken'),
      CIS_TESTING_TOOLS: context.env.CIS_TESTING_TOOLS ?? 'true',
    });
    const mailer = new NotificationClient({
      baseUrl: config.NOTIFICATION_URL,
      internalToken: context.secret('notificationToken'),
    });
    return startService(cisService(config, mailer), config, { bus: context.bus, logger: context.logger });
  },
};
