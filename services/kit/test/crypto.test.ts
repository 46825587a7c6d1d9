import { randomBytes } from 'node:crypto';
import { FieldCipher, safeEqual, sha256Hex } from '../src/index.js';

const key = () => randomBytes(32).toString('base64');

describe('field encryption', () => {
  it('round-trips and never shows the clear value in the sealed form', () => {
    const cipher = FieldCipher.fromConfig(`k1:${key()}`);
    const sealed = cipher.encrypt('1234567890');
    expect(sealed).toMatch(/^v1\.k1\./);
    expect(sealed).not.toContain('1234567890');
    expect(cipher.decrypt(sealed)).toBe('1234567890');
    expect(cipher.encrypt('1234567890')).not.toBe(sealed);
  });

  it('opens values sealed with an older key after rotation', () => {
    const old = key();
    const before = FieldCipher.fromConfig(`k1:${old}`);
    const sealed = before.encrypt('QQ123456C');
    const after = FieldCipher.fromConfig(`k2:${key()},k1:${old}`);
    expect(after.decrypt(sealed)).toBe('QQ123456C');
    expect(after.encrypt('x')).toMatch(/^v1\.k2\./);
  });

  it('refuses a tampered value, an unknown key and a short key', () => {
    const cipher = FieldCipher.fromConfig(`k1:${key()}`);
    const sealed = cipher.encrypt('secret');
    const parts = sealed.split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => cipher.decrypt(parts.join('.'))).toThrow();
    expect(() => FieldCipher.fromConfig(`k9:${key()}`).decrypt(sealed)).toThrow(
      'Encryption key k1 is not configured',
    );
    expect(() => FieldCipher.fromConfig(`k1:${randomBytes(16).toString('base64')}`)).toThrow(
      'must be 32 bytes',
    );
  });

  it('hashes tokens and compares in constant time', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(safeEqual('same', 'same')).toBe(true);
    expect(safeEqual('same', 'diff')).toBe(false);
    expect(safeEqual('short', 'longer')).toBe(false);
  });
});
