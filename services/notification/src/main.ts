import { runServiceMain } from '@workspace/kit';
import { notificationConfigSchema } from './config.js';

await runServiceMain({
  name: 'notification',
  configSchema: notificationConfigSchema,
  load: async (config) => (await import('./service.js')).notificationService(config),
});
