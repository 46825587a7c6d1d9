import {
  FieldCipher,
  problems,
  recordEvent,
  safeEqual,
  withTenant,
  type Knex,
  type Logger,
  type NewEvent,
} from '@workspace/kit';
import type { EventDefinition } from '@workspace/proto';
import type { DescMessage } from '@bufbuild/protobuf';
import type { Request } from 'express';
import type { IdentityConfig } from './config.js';
import { IdentityStore, type Tenant, type User } from './db/store.js';
import {
  computeEffectiveScopes,
  roleTemplates,
  scopeCacheTtlMs,
  type RoleTemplateName,
} from './domain/index.js';
import type { IdpSettings } from './oidc.js';
import { OidcClients } from './oidc.js';
import { notifyLive, type LiveChange } from './live.js';
import { ScopeCache } from './scope-cache.js';
import type { TokenSigner } from './tokens.js';

/** What identity's handlers share: storage, keys, the IdP clients and the effective-scope cache. */
export class IdentityContext {
  readonly scopeCache = new ScopeCache();
  readonly oidc: OidcClients;

  constructor(
    readonly db: Knex,
    readonly config: IdentityConfig,
    readonly cipher: FieldCipher,
    readonly signer: TokenSigner,
    readonly logger: Logger,
    readonly source: string,
  ) {
    this.oidc = new OidcClients(config.OIDC_ALLOW_HTTP, config.OIDC_DISCOVERY_TTL_SECONDS * 1000);
  }

  /** Runs `work` with the tenant's data (row-level security set to it). */
  inTenant<T>(
    tenantId: string,
    work: (store: IdentityStore, trx: Knex.Transaction) => Promise<T>,
  ): Promise<T> {
    return withTenant(this.db, tenantId, (trx) => work(new IdentityStore(trx), trx));
  }

  /**
   * Records an identity event in the outbox and, for tenant, user, whitelist and role-bundle events, sends the live
   * notification of GET /v1/live in the same transaction (`change` says which parts changed).
   */
  async record<Schema extends DescMessage>(
    trx: Knex.Transaction,
    definition: EventDefinition<Schema>,
    event: NewEvent<Schema>,
    change?: LiveChange,
  ): Promise<string> {
    const eventId = await recordEvent(trx, this.source, definition, event);
    await notifyLive(trx, definition.type, event, change);
    return eventId;
  }

  /** Endpoints only the bff may call (sign-in, refresh, logout, link redemption) carry the shared internal token. */
  requireInternal(req: Request): void {
    const token = req.headers['x-internal-token'];
    if (typeof token !== 'string' || !safeEqual(token, this.config.INTERNAL_API_TOKEN)) {
      throw problems.unauthorized('This endpoint is for the backend-for-frontend only.');
    }
  }

  idpFor(tenant: Tenant): IdpSettings {
    if (tenant.idp) {
      return {
        issuer: tenant.idp.issuer,
        clientId: tenant.idp.clientId,
        clientSecret: this.cipher.decrypt(tenant.idp.clientSecretSealed),
      };
    }
    return {
      issuer: this.config.OIDC_ISSUER_URL,
      clientId: this.config.OIDC_CLIENT_ID,
      clientSecret: this.config.OIDC_CLIENT_SECRET,
    };
  }

  /** The user's effective scopes: cached per the spec's TTLs, recomputed after any change to their inputs. */
  async effectiveScopes(store: IdentityStore, tenant: Tenant, user: User): Promise<string[]> {
    const cached = this.scopeCache.get(tenant.id, user.uid);
    if (cached) return cached;
    const bundles = await store.bundles();
    const byId = new Map(bundles.map((bundle) => [bundle.id, bundle.scopes]));
    const scopes = computeEffectiveScopes({
      role: user.role,
      superAdmin: user.superAdmin,
      bundleScopes: user.bundleIds.map((id) => byId.get(id) ?? []),
      availableScopes: tenant.availableScopes ? new Set(tenant.availableScopes) : null,
    });
    this.scopeCache.set(tenant.id, user.uid, scopes, scopeCacheTtlMs({ role: user.role, scopes }));
    return scopes;
  }
}

export const templateBundles = (Object.keys(roleTemplates) as RoleTemplateName[]).map((template) => ({
  id: template,
  name: template,
  scopes: [...roleTemplates[template]],
  template,
}));

export { FieldCipher };
