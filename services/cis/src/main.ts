import { runServiceMain } from '@workspace/kit';
import { cisConfigSchema } from './config.js';

await runServiceMain({
  name: 'cis',
  configSchema: cisConfigSchema,
  // `node dist/main.js migrate`: the migrate step, as the schema owner (the chart's migrate Job).
  schema: async () => {
    const [{ CIS_SCHEMA }, { cisMigrations }] = await Promise.all([
      import('./service.js'),
      import('../migrations/index.js'),
    ]);
    return { schema: CIS_SCHEMA, migrations: cisMigrations };
  },
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
