import type { Knex } from '@workspace/kit';
import { userKeyColumns, type UserKeys } from '../user-keys.js';

export const REGIONS = ['uk', 'eu', 'us'] as const;
export const STORAGE_TIERS = ['free', 'starter', 'professional', 'enterprise', 'custom'] as const;
export const USER_STATUSES = ['active', 'busy', 'unavailable'] as const;
export const ROLES = ['admin', 'standard'] as const;

export type ColourVariation = 'default' | 'lighter' | 'darker' | 'muted';

/** The tenant's logo: a text logo or an image (PNG, JPEG or GIF by content); undefined = none. */
export type TenantLogo =
  | { kind: 'text'; text: string; updatedAt: Date }
  | { kind: 'image'; contentType: string; image: Buffer; size: number; sha256: string; updatedAt: Date };

interface LogoRow {
  kind: 'text' | 'image';
  text: string | null;
  content_type: string | null;
  image: Buffer | null;
  byte_size: number | null;
  sha256: string | null;
  updated_at: Date;
}

export interface TenantModule {
  id: string;
  enabled: boolean;
  config: Record<string, unknown>;
}

export interface Tenant {
  id: string;
  name: string;
  region: (typeof REGIONS)[number];
  branding: {
    accentColor?: string;
    accentHsl?: string;
    successColor?: string;
    successVariation?: ColourVariation;
    successSaturation?: number;
    successLightness?: number;
    dangerColor?: string;
    dangerVariation?: ColourVariation;
    dangerSaturation?: number;
    dangerLightness?: number;
  };
  modules: TenantModule[];
  storageTier: (typeof STORAGE_TIERS)[number];
  entitlements: string[];
  /** The permission whitelist: scopes the tenant's users may hold; null = every non-system scope. */
  availableScopes: string[] | null;
  idp: { issuer: string; clientId: string; clientSecretSealed: string } | null;
}

export interface User {
  uid: string;
  tenantId: string;
  email: string;
  firstName: string;
  lastName: string;
  displayName: string;
  username: string | null;
  role: (typeof ROLES)[number];
  status: (typeof USER_STATUSES)[number];
  themePreference: Record<string, unknown>;
  profilePhotoUrl: string | null;
  teamIds: string[];
  siteIds: string[];
  bundleIds: string[];
  superAdmin: boolean;
}

export interface RoleBundle {
  id: string;
  name: string;
  scopes: string[];
  template: string | null;
}

interface TenantRow {
  tenant_id: string;
  name: string;
  region: Tenant['region'];
  branding: Tenant['branding'];
  modules: TenantModule[];
  storage_tier: Tenant['storageTier'];
  entitlements: string[];
  available_scopes: string[] | null;
  idp: Tenant['idp'];
}

interface UserRow {
  uid: string;
  tenant_id: string;
  email: string;
  first_name: string;
  last_name: string;
  display_name: string;
  username: string | null;
  role: User['role'];
  status: User['status'];
  theme_preference: Record<string, unknown>;
  profile_photo_url: string | null;
  team_ids: string[];
  site_ids: string[];
  bundle_ids: string[];
  super_admin: boolean;
  idp_subject?: string | null;
  updated_at?: unknown;
}

const toTenant = (row: TenantRow): Tenant => ({
  id: row.tenant_id,
  name: row.name,
  region: row.region,
  branding: row.branding,
  modules: row.modules,
  storageTier: row.storage_tier,
  entitlements: row.entitlements,
  availableScopes: row.available_scopes,
  idp: row.idp,
});

const toUser = (row: UserRow): User => ({
  uid: row.uid,
  tenantId: row.tenant_id,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  displayName: row.display_name,
  username: row.username,
  role: row.role,
  status: row.status,
  themePreference: row.theme_preference,
  profilePhotoUrl: row.profile_photo_url,
  teamIds: row.team_ids,
  siteIds: row.site_ids,
  bundleIds: row.bundle_ids,
  superAdmin: row.super_admin,
});

/** Data access for one tenant, inside a `withTenant` transaction (row-level security is on every table). */
export class IdentityStore {
  constructor(private readonly trx: Knex.Transaction) {}

  async tenant(tenantId: string): Promise<Tenant | undefined> {
    const row = await this.trx<TenantRow>('tenants').where({ tenant_id: tenantId }).first();
    return row ? toTenant(row) : undefined;
  }

  async createTenant(tenant: Omit<Tenant, 'idp'> & { idp?: Tenant['idp'] }): Promise<void> {
    await this.trx('tenants').insert({
      tenant_id: tenant.id,
      name: tenant.name,
      region: tenant.region,
      branding: JSON.stringify(tenant.branding),
      modules: JSON.stringify(tenant.modules),
      storage_tier: tenant.storageTier,
      entitlements: tenant.entitlements,
      available_scopes: tenant.availableScopes,
      idp: tenant.idp ? JSON.stringify(tenant.idp) : null,
    });
  }

  async updateTenant(
    tenantId: string,
    changes: Partial<Pick<Tenant, 'name' | 'branding' | 'modules' | 'entitlements' | 'storageTier'>>,
  ): Promise<void> {
    await this.trx('tenants')
      .where({ tenant_id: tenantId })
      .update({
        ...(changes.name === undefined ? {} : { name: changes.name }),
        ...(changes.branding === undefined ? {} : { branding: JSON.stringify(changes.branding) }),
        ...(changes.modules === undefined ? {} : { modules: JSON.stringify(changes.modules) }),
        ...(changes.entitlements === undefined ? {} : { entitlements: changes.entitlements }),
        ...(changes.storageTier === undefined ? {} : { storage_tier: changes.storageTier }),
        updated_at: this.trx.fn.now(),
      });
  }

  async setAvailableScopes(tenantId: string, scopes: string[] | null): Promise<void> {
    await this.trx('tenants')
      .where({ tenant_id: tenantId })
      .update({ available_scopes: scopes, updated_at: this.trx.fn.now() });
  }

  /** The tenant's logo; `withImage: false` leaves the bytes in the database (a metadata read). */
  async logo(tenantId: string, options: { withImage: boolean }): Promise<TenantLogo | undefined> {
    const columns = ['kind', 'text', 'content_type', 'byte_size', 'sha256', 'updated_at'];
    const row: LogoRow | undefined = await this.trx('tenant_logos')
      .where({ tenant_id: tenantId })
      .first(options.withImage ? [...columns, 'image'] : columns);
    if (!row) return undefined;
    if (row.kind === 'text') return { kind: 'text', text: row.text ?? '', updatedAt: row.updated_at };
    return {
      kind: 'image',
      contentType: row.content_type ?? 'application/octet-stream',
      image: row.image ?? Buffer.alloc(0),
      size: row.byte_size ?? 0,
      sha256: row.sha256 ?? '',
      updatedAt: row.updated_at,
    };
  }

  async saveLogo(
    tenantId: string,
    logo:
      { kind: 'text'; text: string } | { kind: 'image'; contentType: string; image: Buffer; sha256: string },
    updatedBy: string,
  ): Promise<void> {
    const row =
      logo.kind === 'text'
        ? { kind: 'text', text: logo.text, content_type: null, image: null, byte_size: null, sha256: null }
        : {
            kind: 'image',
            text: null,
            content_type: logo.contentType,
            image: logo.image,
            byte_size: logo.image.length,
            sha256: logo.sha256,
          };
    await this.trx('tenant_logos')
      .insert({ tenant_id: tenantId, ...row, updated_by: updatedBy, updated_at: this.trx.fn.now() })
      .onConflict('tenant_id')
      .merge();
  }

  /** Removes the logo; true when there was one. */
  async deleteLogo(tenantId: string): Promise<boolean> {
    return (await this.trx('tenant_logos').where({ tenant_id: tenantId }).delete()) > 0;
  }

  async user(uid: string): Promise<User | undefined> {
    const row = await this.trx<UserRow>('users').where({ uid }).first();
    return row ? toUser(row) : undefined;
  }

  async userBySubjectOrEmail(subject: string, email: string | undefined): Promise<User | undefined> {
    const bySubject = await this.trx<UserRow>('users').where({ idp_subject: subject }).first();
    if (bySubject) return toUser(bySubject);
    if (!email) return undefined;
    const byEmail = await this.trx<UserRow>('users')
      .whereRaw('lower(email) = lower(?)', [email])
      .whereNull('idp_subject')
      .first();
    if (!byEmail) return undefined;
    // First sign-in: link the IdP subject to the invited user.
    await this.trx('users').where({ uid: byEmail.uid }).update({ idp_subject: subject });
    return toUser(byEmail);
  }

  async users(): Promise<User[]> {
    const rows = await this.trx<UserRow>('users').orderBy(['last_name', 'first_name', 'email']);
    return rows.map(toUser);
  }

  /** Creates a user with their key pair (every user has one: the table refuses a row without). */
  async createUser(
    user: Omit<User, 'superAdmin' | 'profilePhotoUrl'> & { idpSubject?: string },
    keys: UserKeys,
  ): Promise<void> {
    await this.trx('users').insert({
      uid: user.uid,
      tenant_id: user.tenantId,
      email: user.email,
      first_name: user.firstName,
      last_name: user.lastName,
      display_name: user.displayName,
      username: user.username,
      role: user.role,
      status: user.status,
      theme_preference: JSON.stringify(user.themePreference),
      team_ids: user.teamIds,
      site_ids: user.siteIds,
      bundle_ids: user.bundleIds,
      idp_subject: user.idpSubject ?? null,
      ...userKeyColumns(keys),
    });
  }

  async updateUser(
    uid: string,
    changes: Partial<Pick<User, 'role' | 'status' | 'themePreference' | 'bundleIds' | 'profilePhotoUrl'>>,
  ): Promise<User | undefined> {
    const updated = (await this.trx('users')
      .where({ uid })
      .update({
        ...(changes.role === undefined ? {} : { role: changes.role }),
        ...(changes.status === undefined ? {} : { status: changes.status }),
        ...(changes.themePreference === undefined
          ? {}
          : { theme_preference: JSON.stringify(changes.themePreference) }),
        ...(changes.bundleIds === undefined ? {} : { bundle_ids: changes.bundleIds }),
        ...(changes.profilePhotoUrl === undefined ? {} : { profile_photo_url: changes.profilePhotoUrl }),
        updated_at: this.trx.fn.now(),
      })
      .returning('*')) as UserRow[];
    const row = updated[0];
    return row ? toUser(row) : undefined;
  }

  async bundles(): Promise<RoleBundle[]> {
    const rows = await this.trx<{
      bundle_id: string;
      name: string;
      scopes: string[];
      template: string | null;
    }>('role_bundles').orderBy('bundle_id');
    return rows.map((row) => ({
      id: row.bundle_id,
      name: row.name,
      scopes: row.scopes,
      template: row.template,
    }));
  }

  async upsertBundle(tenantId: string, bundle: RoleBundle): Promise<void> {
    await this.trx('role_bundles')
      .insert({
        tenant_id: tenantId,
        bundle_id: bundle.id,
        name: bundle.name,
        scopes: bundle.scopes,
        template: bundle.template,
      })
      .onConflict(['tenant_id', 'bundle_id'])
      .merge({
        name: bundle.name,
        scopes: bundle.scopes,
        template: bundle.template,
        updated_at: this.trx.fn.now(),
      });
  }

  async deleteBundle(bundleId: string): Promise<boolean> {
    return (await this.trx('role_bundles').where({ bundle_id: bundleId }).delete()) > 0;
  }
}
