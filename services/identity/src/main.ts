import { runServiceMain } from '@workspace/kit';
import { identityConfigSchema } from './config.js';

await runServiceMain({
  name: 'identity',
  configSchema: identityConfigSchema,
  load: async (config) => (await import('./service.js')).identityService(config),
});
