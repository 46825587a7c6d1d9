import { runServiceMain } from '@workspace/kit';
import { driveConfigSchema } from './config.js';

await runServiceMain({
  name: 'drive',
  configSchema: driveConfigSchema,
  // `node dist/main.js migrate`: the migrate step, as the schema owner (the chart's migrate Job).
  schema: async () => {
    const [{ DRIVE_SCHEMA }, { driveMigrations }] = await Promise.all([
      import('./service.js'),
      import('../migrations/index.js'),
    ]);
    return { schema: DRIVE_SCHEMA, migrations: driveMigrations };
  },
  load: async (config) => (await import('./service.js')).driveService(config),
});
