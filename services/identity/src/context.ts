import type { FieldCipher, Knex, Logger, NewEvent } from '@workspace/kit';
import type { DescMessage } from '@bufbuild/protobuf';
import type { EventDefinition } from '@workspace/proto';
import { OidcClients, type IdpSettings } from './clients/oidc.js';
import type { TokenSigner } from './commands/token-signer.js';
import type { IdentityConfig } from './config.js';
import { inTenant, type TenantStores } from './db/stores.js';
import type { Tenant } from './db/tenants.store.js';
import { IdentityEventRecorder } from './events/identity-events.js';
import type { LiveChange } from './events/live.js';
import { ScopeCache } from './scope-cache.js';

/** What identity's commands share: the database, keys, the IdP clients, the event outbox and the scope cache. */
export class IdentityContext {
  readonly scopeCache = new ScopeCache();
  readonly oidc: OidcClients;
  private readonly events: IdentityEventRecorder;

  constructor(
    readonly db: Knex,
    readonly config: IdentityConfig,
    readonly cipher: FieldCipher,
    readonly signer: TokenSigner,
    readonly logger: Logger,
    source: string,
  ) {
    this.oidc = new OidcClients(config.OIDC_ALLOW_HTTP, config.OIDC_DISCOVERY_TTL_SECONDS * 1000);
    this.events = new IdentityEventRecorder(source);
  }

  /** Runs `work` with the tenant's data (row-level security set to it) and its stores. */
  inTenant<T>(
    tenantId: string,
    work: (stores: TenantStores, trx: Knex.Transaction) => Promise<T>,
  ): Promise<T> {
    return inTenant(this.db, tenantId, work);
  }

  /** Records an identity event (and its live notification) in the transaction of `stores`. */
  record<Schema extends DescMessage>(
    stores: TenantStores,
    definition: EventDefinition<Schema>,
    event: NewEvent<Schema>,
    change?: LiveChange,
  ): Promise<string> {
    return this.events.record(stores, definition, event, change);
  }

  /** The tenant's own IdP, else the one every tenant uses by default. */
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
}
