// Security review L7: FieldCipher pins GCM's tag (16 bytes) and IV (12 bytes) when it opens a value.
import { randomBytes } from 'node:crypto';
import { FieldCipher } from '../src/crypto.js';

const cipher = FieldCipher.fromConfig(`k1:${randomBytes(32).toString('base64')}`);
const sealed = cipher.encrypt('1234567890');
const withPart = (index: number, bytes: Buffer) => {
  const parts = sealed.split('.');
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
};
const tag = Buffer.from(sealed.split('.')[3] ?? '', 'base64url');
const iv = Buffer.from(sealed.split('.')[2] ?? '', 'base64url');

describe('the GCM tag and IV of a sealed value', () => {
  it('are 16 and 12 bytes, and the value opens with them', () => {
    expect(tag).toHaveLength(16);
    expect(iv).toHaveLength(12);
    expect(cipher.decrypt(sealed)).toBe('1234567890');
  });

  it.each([4, 8, 12, 15])('refuses the right tag cut down to %i bytes', (length) => {
    expect(() => cipher.decrypt(withPart(3, tag.subarray(0, length)))).toThrow('Not an encrypted value');
  });

  it('refuses an IV of another length', () => {
    expect(() => cipher.decrypt(withPart(2, Buffer.concat([iv, Buffer.alloc(4)])))).toThrow(
      'Not an encrypted value',
    );
  });
});
