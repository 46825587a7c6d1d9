// audit in `make up` (deploy/local/embedded.ts): every embedded service's events on the in-process bus become the
// tenants' chains; the checkpoint key is made from a local secret (kept under .data/, never in the repository).
import { startService } from '@workspace/kit';
import type { EmbeddedService } from '@workspace/kit/embedding';
import { ed25519PemFromSeed } from './chain/hash.js';
import { auditConfigSchema } from './config.js';
import { auditService } from './service.js';

export const embedded: EmbeddedService = {
  name: 'audit',
  port: 8085,
  after: ['identity', 'cis', 'drive'],
  note: 'internal; OpenAPI at /openapi.json',
  async start(context) {
    const config = auditConfigSchema.parse({
      ...(await context.serviceEnv({ schema: 'audit', role: 'svc_audit' })),
      AUDIT_CHECKPOINT_PRIVATE_KEY: ed25519PemFromSeed(context.secret('auditCheckpointSeed')),
    });
    return startService(auditService(config), config, { bus: context.bus, logger: context.logger });
  },
};
