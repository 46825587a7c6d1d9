// Each user has a public key (workspace spec §3; ADR 0026): X25519, the public half stored in clear, the private half
// only sealed with identity's field cipher. Anyone may seal data to a user with their public key (`sealForUser`);
// only identity, on that user's behalf, can open it (`openSealedForUser`).

import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { ApiRouter, problems, type FieldCipher, type Knex, type Logger } from '@workspace/kit';
import { z } from 'zod';
import type { IdentityContext } from './context.js';

export const USER_KEY_ALGORITHM = 'X25519';

export interface UserKeys {
  /** base64url of the 32 raw bytes of the X25519 public key. */
  publicKey: string;
  /** The PKCS#8 private key, sealed with the field cipher (never stored or logged in clear). */
  privateKeySealed: string;
}

export function generateUserKeys(cipher: FieldCipher): UserKeys {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  return {
    publicKey: rawPublicKey(publicKey),
    privateKeySealed: cipher.encrypt(privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64')),
  };
}

function rawPublicKey(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' });
  if (typeof jwk.x !== 'string') throw new Error('not an X25519 public key');
  return jwk.x;
}

const publicKeyObject = (publicKey: string): KeyObject =>
  createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: publicKey }, format: 'jwk' });

const INFO = Buffer.from('workspace user seal v1');

function sealKey(shared: Buffer, ephemeral: Buffer, recipient: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', shared, Buffer.concat([ephemeral, recipient]), INFO, 32));
}

/**
 * Seals `plaintext` to the holder of `publicKey`: an ephemeral X25519 agreement, HKDF-SHA256, AES-256-GCM.
 * Format: base64url(ephemeral public key 32 | iv 12 | tag 16 | ciphertext).
 */
export function sealForUser(publicKey: string, plaintext: Buffer): string {
  const ephemeral = generateKeyPairSync('x25519');
  const ephemeralRaw = Buffer.from(rawPublicKey(ephemeral.publicKey), 'base64url');
  const recipientRaw = Buffer.from(publicKey, 'base64url');
  const shared = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: publicKeyObject(publicKey) });
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(shared, ephemeralRaw, recipientRaw), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([ephemeralRaw, iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
}

/** Opens what `sealForUser` sealed to the user whose keys these are; throws when it was not sealed to them. */
export function openSealedForUser(keys: UserKeys, cipher: FieldCipher, sealed: string): Buffer {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length < 60) throw new Error('Not a sealed value');
  const ephemeralRaw = bytes.subarray(0, 32);
  const privateKey = createPrivateKey({
    key: Buffer.from(cipher.decrypt(keys.privateKeySealed), 'base64'),
    format: 'der',
    type: 'pkcs8',
  });
  const shared = diffieHellman({
    privateKey,
    publicKey: publicKeyObject(ephemeralRaw.toString('base64url')),
  });
  const decipher = createDecipheriv(
    'aes-256-gcm',
    sealKey(shared, ephemeralRaw, Buffer.from(keys.publicKey, 'base64url')),
    bytes.subarray(32, 44),
  );
  decipher.setAuthTag(bytes.subarray(44, 60));
  return Buffer.concat([decipher.update(bytes.subarray(60)), decipher.final()]);
}

/**
 * Gives every user without a key pair one (users created before migration 005), in batches, across tenants: the
 * transaction sets `app.user_keys_backfill`, which lets it see users without a key and nothing else. Returns how
 * many users got a key.
 */
export async function backfillUserKeys(db: Knex, cipher: FieldCipher, logger?: Logger): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await db.transaction(async (trx) => {
      await trx.raw(`SELECT set_config('app.user_keys_backfill', 'on', true)`);
      const rows = await trx('users').whereNull('public_key').limit(200).select<{ uid: string }[]>('uid');
      for (const { uid } of rows) {
        const keys = generateUserKeys(cipher);
        await trx('users').where({ uid }).whereNull('public_key').update({
          public_key: keys.publicKey,
          private_key_sealed: keys.privateKeySealed,
          key_created_at: trx.fn.now(),
        });
      }
      return rows.length;
    });
    total += done;
    if (done < 200) break;
  }
  if (total > 0) logger?.info({ users: total }, 'gave users created before their keys existed a key pair');
  return total;
}

/** The key columns of a new user row. */
export const userKeyColumns = (keys: UserKeys) => ({
  public_key: keys.publicKey,
  private_key_sealed: keys.privateKeySealed,
  key_created_at: new Date(),
});

const publicKeyView = z.object({
  uid: z.string(),
  algorithm: z.literal(USER_KEY_ALGORITHM),
  publicKey: z.string(),
  jwk: z.object({ kty: z.literal('OKP'), crv: z.literal('X25519'), x: z.string() }),
  createdAt: z.string(),
});

/** GET /v1/users/:uid/public-key: any signed-in member of the tenant may read a colleague's public key. */
export function userKeyRoutes(context: IdentityContext): ApiRouter {
  return new ApiRouter().route({
    method: 'get',
    path: '/users/:uid/public-key',
    summary: 'A user’s public key (X25519), to seal data only that user can open',
    request: { params: z.object({ uid: z.uuid() }) },
    responses: {
      200: { description: 'Public key', schema: publicKeyView },
      404: { description: 'No such user' },
    },
    handler: ({ ctx, params }) =>
      context.inTenant(ctx.tenantId, async (_store, trx) => {
        const row = await trx('users')
          .where({ uid: params.uid })
          .first<{ uid: string; public_key: string | null; key_created_at: Date | null } | undefined>(
            'uid',
            'public_key',
            'key_created_at',
          );
        if (!row?.public_key || !row.key_created_at) throw problems.notFound('User not found.');
        return {
          uid: row.uid,
          algorithm: USER_KEY_ALGORITHM,
          publicKey: row.public_key,
          jwk: { kty: 'OKP', crv: 'X25519', x: row.public_key },
          createdAt: row.key_created_at.toISOString(),
        };
      }),
  });
}
