import { runServiceMain } from '@workspace/kit';
import { notificationConfigSchema } from './config.js';

await runServiceMain({
  name: 'notification',
  configSchema: notificationConfigSchema,
  // `node dist/main.js migrate`: the migrate step, as the schema owner (the chart's migrate Job).
  schema: async () => {
    const [{ NOTIFICATION_SCHEMA }, { notificationMigrations }] = await Promise.all([
      import('./service.js'),
      import('../migrations/index.js'),
    ]);
    return { schema: NOTIFICATION_SCHEMA, migrations: notificationMigrations };
  },
  load: async (config) => (await import('./service.js')).notificationService(config),
});
