import { runServiceMain } from '@workspace/kit';
import { auditConfigSchema } from './config.js';

await runServiceMain({
  name: 'audit',
  configSchema: auditConfigSchema,
  // `node dist/main.js migrate`: the migrate step, as the schema owner (the chart's migrate Job).
  schema: async () => {
    const [{ AUDIT_SCHEMA }, { auditMigrations }] = await Promise.all([
      import('./service.js'),
      import('../migrations/index.js'),
    ]);
    return { schema: AUDIT_SCHEMA, migrations: auditMigrations };
  },
  load: async (config) => (await import('./service.js')).auditService(config),
});
