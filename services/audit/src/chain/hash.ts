// The hash chain and the checkpoint signatures (docs/audit.md, ADR 0051): sha-256 over an entry's canonical form,
// Ed25519 over a checkpoint's, with node:crypto. The offline verifier (bin/verify-audit.ts) uses the same code.
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { canonicalCheckpoint, canonicalEntry, type AuditEntry, type Checkpoint } from '../domain/entries.js';

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The hash an entry must carry: sha-256 of its canonical form, lower-case hex. */
export const entryHash = (entry: Omit<AuditEntry, 'hash'>): string => sha256Hex(canonicalEntry(entry));

/** DER prefix of a PKCS#8 Ed25519 private key; the 32-byte seed follows (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A PKCS#8 PEM Ed25519 key from a 32-byte seed (hex): how `make up` turns its local secret into a signing key. */
export function ed25519PemFromSeed(seedHex: string): string {
  const seed = Buffer.from(seedHex, 'hex').subarray(0, 32);
  if (seed.length !== 32) throw new Error('An Ed25519 seed is 32 bytes');
  const key = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  return key.export({ format: 'pem', type: 'pkcs8' }).toString();
}

/** The checkpoint signer: the private key, its public key as PEM (SPKI) and its id. */
export interface CheckpointKey {
  privateKey: KeyObject;
  publicKeyPem: string;
  keyId: string;
}

/** The key id: the first 16 hex digits of sha-256 over the public key's DER (SPKI). */
export function publicKeyId(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ format: 'der', type: 'spki' }))
    .digest('hex')
    .slice(0, 16);
}

export function checkpointKey(privatePem: string): CheckpointKey {
  const privateKey = createPrivateKey(privatePem);
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new Error('The checkpoint key must be an Ed25519 key');
  const publicKey = createPublicKey(privateKey);
  return {
    privateKey,
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    keyId: publicKeyId(publicKey),
  };
}

export const signCheckpoint = (key: CheckpointKey, checkpoint: Checkpoint): string =>
  sign(null, Buffer.from(canonicalCheckpoint(checkpoint), 'utf8'), key.privateKey).toString('base64');

export function checkpointSignatureValid(
  publicKeyPem: string,
  checkpoint: Checkpoint,
  signature: string,
): boolean {
  try {
    return verify(
      null,
      Buffer.from(canonicalCheckpoint(checkpoint), 'utf8'),
      createPublicKey(publicKeyPem),
      Buffer.from(signature, 'base64'),
    );
  } catch {
    return false;
  }
}
