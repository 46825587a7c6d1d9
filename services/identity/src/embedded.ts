// identity in `make up` (deploy/local/embedded.ts): its own schema, the local OpenID provider, and the demo tenant
// seeded on first start.
import { startService } from '@workspace/kit';
import type { EmbeddedService } from '@workspace/kit/embedding';
import { identityConfigSchema } from './config.js';
import { seedTenant } from './commands/seed-tenant.js';
import { identityService } from './service.js';

export const embedded: EmbeddedService = {
  name: 'identity',
  port: 8081,
  note: 'internal; OpenAPI at /openapi.json',
  async start(context) {
    const config = identityConfigSchema.parse({
      ...(await context.serviceEnv({ schema: 'identity', role: 'svc_identity' })),
      IDENTITY_ENCRYPTION_KEYS: context.secret('encryptionKeys', 'key'),
      INTERNAL_API_TOKEN: context.secret('internalToken'),
      OIDC_ISSUER_URL: context.oidc.issuer,
      OIDC_CLIENT_ID: context.oidc.clientId,
      OIDC_CLIENT_SECRET: context.oidc.clientSecret,
      OIDC_ALLOW_HTTP: 'true',
      PORTAL_LOGIN_URL: `${context.publicUrl}/portal-login`,
      // The sign-in links subcontractors ask for are sent through cis (ADR 0055).
      CIS_URL: context.urlOf('cis'),
    });
    const definition = identityService(config);
    const running = await startService(definition, config, { bus: context.bus, logger: context.logger });
    const seeded = await seedTenant(definition.context(), context.demoTenant);
    if (seeded.created) context.logger.info({ tenant: context.demoTenantId }, 'seeded the demo tenant');
    return running;
  },
};
