import { runServiceMain } from '@workspace/kit';
import { identityConfigSchema } from './config.js';

await runServiceMain({
  name: 'identity',
  configSchema: identityConfigSchema,
  // `node dist/main.js migrate`: the migrate step, as the schema owner (the chart's migrate Job).
  schema: async () => {
    const [{ IDENTITY_SCHEMA }, { identityMigrations }] = await Promise.all([
      import('./service.js'),
      import('../migrations/index.js'),
    ]);
    return { schema: IDENTITY_SCHEMA, migrations: identityMigrations };
  },
  load: async (config) => (await import('./service.js')).identityService(config),
});
