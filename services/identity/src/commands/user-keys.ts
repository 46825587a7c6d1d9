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
import type { FieldCipher } from '@workspace/kit';
import type { UserKeys } from '../db/users.store.js';

export type { UserKeys } from '../db/users.store.js';

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
