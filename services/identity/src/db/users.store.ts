import type { Knex } from '@workspace/kit';
import type { ROLES, USER_STATUSES } from '../domain/tenant.js';

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

/** A user's X25519 key pair as stored: the public half in clear, the private half sealed (ADR 0026). */
export interface UserKeys {
  /** base64url of the 32 raw bytes of the X25519 public key. */
  publicKey: string;
  /** The PKCS#8 private key, sealed with the field cipher (never stored or logged in clear). */
  privateKeySealed: string;
}

export type NewUser = Omit<User, 'superAdmin' | 'profilePhotoUrl'> & { idpSubject?: string };

export type UserChanges = Partial<
  Pick<User, 'role' | 'status' | 'themePreference' | 'bundleIds' | 'profilePhotoUrl'>
>;

/** Who a user is for their avatar: the photo URL is part of the cache key (a new photo is a new avatar). */
export interface UserPhoto {
  uid: string;
  photoUrl: string | null;
}

export interface UserPublicKey {
  uid: string;
  publicKey: string;
  createdAt: Date;
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
}

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

/** The tenant's users (table `users`), their key pairs included. */
export class UserStore {
  constructor(private readonly trx: Knex.Transaction) {}

  async user(uid: string): Promise<User | undefined> {
    const row = await this.trx<UserRow>('users').where({ uid }).first();
    return row ? toUser(row) : undefined;
  }

  /** The user the IdP subject belongs to; on a first sign-in, the invited user with that email, linked to it. */
  async userBySubjectOrEmail(subject: string, email: string | undefined): Promise<User | undefined> {
    const bySubject = await this.trx<UserRow>('users').where({ idp_subject: subject }).first();
    if (bySubject) return toUser(bySubject);
    if (!email) return undefined;
    const byEmail = await this.trx<UserRow>('users')
      .whereRaw('lower(email) = lower(?)', [email])
      .whereNull('idp_subject')
      .first();
    if (!byEmail) return undefined;
    await this.trx('users').where({ uid: byEmail.uid }).update({ idp_subject: subject });
    return toUser(byEmail);
  }

  async users(): Promise<User[]> {
    const rows = await this.trx<UserRow>('users').orderBy(['last_name', 'first_name', 'email']);
    return rows.map(toUser);
  }

  /** Creates a user with their key pair (every user has one: the table refuses a row without). */
  async createUser(user: NewUser, keys: UserKeys): Promise<void> {
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
      public_key: keys.publicKey,
      private_key_sealed: keys.privateKeySealed,
      key_created_at: new Date(),
    });
  }

  async updateUser(uid: string, changes: UserChanges): Promise<User | undefined> {
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

  /** The profile photo URLs of the given users (those that exist). */
  async photos(uids: string[]): Promise<UserPhoto[]> {
    const rows = await this.trx('users')
      .whereIn('uid', uids)
      .select<{ uid: string; profile_photo_url: string | null }[]>('uid', 'profile_photo_url');
    return rows.map((row) => ({ uid: row.uid, photoUrl: row.profile_photo_url }));
  }

  /** The user's public key; undefined when there is no such user or they have no key yet. */
  async publicKey(uid: string): Promise<UserPublicKey | undefined> {
    const row = await this.trx('users')
      .where({ uid })
      .first<{ uid: string; public_key: string | null; key_created_at: Date | null } | undefined>(
        'uid',
        'public_key',
        'key_created_at',
      );
    if (!row?.public_key || !row.key_created_at) return undefined;
    return { uid: row.uid, publicKey: row.public_key, createdAt: row.key_created_at };
  }
}
