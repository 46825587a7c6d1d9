import type { Migration } from '@workspace/kit';
import { identitySchema } from './001_identity.js';
import { tenantFooter } from './002_tenant_footer.js';
import { tenantLogo } from './003_tenant_logo.js';
import { sessionHardening } from './004_session_hardening.js';
import { userKeys } from './005_user_keys.js';
import { rateLimits } from './006_rate_limits.js';
import { ownerOnlyCleanup } from './007_owner_only_cleanup.js';
import { portalLinkRequests } from './008_portal_link_requests.js';

/**
 * identity's migrations in the order they apply. Append only: a new change is a new file, added at the end. A
 * migration's `name` is what knex records as applied, so names never change (test/migrations.test.ts).
 */
export const identityMigrations: Migration[] = [
  identitySchema,
  tenantFooter,
  tenantLogo,
  sessionHardening,
  userKeys,
  rateLimits,
  ownerOnlyCleanup,
  portalLinkRequests,
];
