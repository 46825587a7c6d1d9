import { randomBytes } from 'node:crypto';
import { FieldCipher } from '@workspace/kit';
import { generateUserKeys, openSealedForUser, sealForUser } from '../src/commands/user-keys.js';

const cipher = new FieldCipher({ k1: randomBytes(32).toString('base64') }, 'k1');

describe('user key pairs', () => {
  it('gives each user an X25519 public key and keeps the private half only sealed', () => {
    const keys = generateUserKeys(cipher);
    expect(keys.publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(keys.publicKey, 'base64url')).toHaveLength(32);
    expect(keys.privateKeySealed).toMatch(/^v1\.k1\./);
    expect(generateUserKeys(cipher).publicKey).not.toBe(keys.publicKey);
  });

  it('data sealed to a user’s public key opens only with that user’s keys', () => {
    const alice = generateUserKeys(cipher);
    const bob = generateUserKeys(cipher);
    const sealed = sealForUser(alice.publicKey, Buffer.from('shared note key'));
    expect(openSealedForUser(alice, cipher, sealed).toString()).toBe('shared note key');
    expect(() => openSealedForUser(bob, cipher, sealed)).toThrow();
    const other = new FieldCipher({ k2: randomBytes(32).toString('base64') }, 'k2');
    expect(() => openSealedForUser(alice, other, sealed)).toThrow();
  });
});
