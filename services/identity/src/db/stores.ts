import { withTenant, type Knex } from '@workspace/kit';
import { BffSessionStore } from './bff-sessions.store.js';
import { LiveNotificationStore } from './live-notifications.store.js';
import { PortalLinkStore } from './portal-links.store.js';
import { RefreshSessionStore } from './refresh-sessions.store.js';
import { RoleBundleStore } from './role-bundles.store.js';
import { TenantLogoStore } from './tenant-logos.store.js';
import { TenantStore } from './tenants.store.js';
import { UserStore } from './users.store.js';

/** Every store of one tenant's transaction (row-level security set to the tenant). */
export class TenantStores {
  readonly tenants: TenantStore;
  readonly logos: TenantLogoStore;
  readonly users: UserStore;
  readonly bundles: RoleBundleStore;
  readonly portalLinks: PortalLinkStore;
  readonly refreshSessions: RefreshSessionStore;
  readonly bffSessions: BffSessionStore;
  readonly live: LiveNotificationStore;

  constructor(readonly trx: Knex.Transaction) {
    this.tenants = new TenantStore(trx);
    this.logos = new TenantLogoStore(trx);
    this.users = new UserStore(trx);
    this.bundles = new RoleBundleStore(trx);
    this.portalLinks = new PortalLinkStore(trx);
    this.refreshSessions = new RefreshSessionStore(trx);
    this.bffSessions = new BffSessionStore(trx);
    this.live = new LiveNotificationStore(trx);
  }
}

/** Runs `work` with the tenant's data (row-level security set to it) and its stores. */
export function inTenant<T>(
  db: Knex,
  tenantId: string,
  work: (stores: TenantStores, trx: Knex.Transaction) => Promise<T>,
): Promise<T> {
  return withTenant(db, tenantId, (trx) => work(new TenantStores(trx), trx));
}
