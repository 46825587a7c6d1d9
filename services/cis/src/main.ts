import { runServiceMain } from '@workspace/kit';
import { cisConfigSchema } from './config.js';

await runServiceMain({
  name: 'cis',
  configSchema: cisConfigSchema,
  load: async (config) => {
    const [{ cisService }, { NotificationClient }] = await Promise.all([
      import('./service.js'),
      import('@workspace/notification'),
    ]);
    const mailer = new NotificationClient({
      baseUrl: config.NOTIFICATION_URL,
      internalToken: config.NOTIFICATION_TOKEN,
    });
    return cisService(config, mailer);
  },
});
