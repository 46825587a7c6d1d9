// notification in `make up` (deploy/local/embedded.ts): delivery to a real local SMTP server that keeps what it
// receives (read it at http://localhost:8025/messages).
import type { EmbeddedService } from '@workspace/kit/embedding';
import { notificationConfigSchema } from './config.js';
import { startNotificationService } from './service.js';
import { startSmtpSink } from './dev-sink/sink.js';

const SMTP_PORT = 1025;
const MAIL_PORT = 8025;

export const embedded: EmbeddedService = {
  name: 'notification',
  port: 8083,
  note: 'internal',
  async start(context) {
    const sink = await startSmtpSink({ smtpPort: SMTP_PORT, httpPort: MAIL_PORT });
    const config = notificationConfigSchema.parse({
      ...(await context.serviceEnv({ schema: 'notification', role: 'svc_notification' })),
      INTERNAL_API_TOKEN: context.secret('notificationToken'),
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(SMTP_PORT),
      // The local sink speaks plain SMTP on 127.0.0.1; a real relay is always required to use TLS.
      SMTP_REQUIRE_TLS: 'false',
      NOTIFICATION_ENCRYPTION_KEYS: context.secret('notificationEncryptionKeys', 'key'),
      MAIL_FROM: 'Workspace <no-reply@workspace.local>',
      // In-app notifications: identity says who may approve (its internal token), when the first event needs it.
      IDENTITY_URL: context.urlOf('identity'),
      IDENTITY_TOKEN: context.secret('internalToken'),
    });
    const running = await startNotificationService(config, { bus: context.bus, logger: context.logger });
    return {
      async shutdown(reason) {
        await running.shutdown(reason);
        await sink.close();
      },
      banner: [`email (SMTP sink) smtp://localhost:${SMTP_PORT}, messages at ${sink.httpUrl}/messages`],
    };
  },
};
