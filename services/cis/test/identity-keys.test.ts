// One subcontractor per person (ADR 0039): identifiers normalised the one way they are compared, what an invited
// subcontractor still lacks, the keyed hash (per tenant, never the identifier) and its key's configuration.
import { randomBytes } from 'node:crypto';
import { loadConfig } from '@workspace/kit';
import { IdentityHasher } from '../src/commands/identity-hashes.js';
import { cisConfigSchema } from '../src/config.js';
import { duplicateMessage, identityKeys, missingDetails } from '../src/domain/index.js';

describe('identity keys', () => {
  it('normalise: UTR digits only, NINO and company number upper-case without spaces', () => {
    expect(identityKeys({ utr: 'K12345 67890', nino: 'ab 12 34 56 c', companyNumber: 'sc 123456' })).toEqual({
      utr: '1234567890',
      nino: 'AB123456C',
      crn: 'SC123456',
    });
    expect(identityKeys({})).toEqual({ utr: '', nino: '', crn: '' });
  });

  it('name the record that has the identifier', () => {
    expect(duplicateMessage('nino', 'Jane Smith')).toBe(
      'Jane Smith already has this National Insurance number: each person has one subcontractor record. Open their record instead of adding another.',
    );
  });

  it('an invited record lacks its address (line 1, city, postcode) and GDPR consent until given', () => {
    expect(missingDetails({ registeredAddress: {}, gdprConsent: false })).toEqual(['address', 'gdprConsent']);
    expect(
      missingDetails({
        registeredAddress: { line1: '1 High St', city: 'Leeds', postcode: '' },
        gdprConsent: true,
      }),
    ).toEqual(['address']);
    expect(
      missingDetails({
        registeredAddress: { line1: '1 High St', city: 'Leeds', postcode: 'LS1 1AA' },
        gdprConsent: true,
      }),
    ).toEqual([]);
  });
});

describe('identity hashes', () => {
  const hasher = new IdentityHasher(randomBytes(32).toString('base64'));

  it('are equal for one identifier however written, differ between tenants and kinds, and are not the identifier', () => {
    const a = hasher.hashes('demo', { utr: '12345 67890' });
    expect(a.utr).toMatch(/^[0-9a-f]{64}$/);
    expect(a.utr).toBe(hasher.hashes('demo', { utr: 'K1234567890' }).utr);
    expect(a.utr).not.toBe(hasher.hashes('acme', { utr: '1234567890' }).utr);
    expect(a.utr).not.toBe(hasher.hash('demo', 'crn', '1234567890'));
    expect(a).toMatchObject({ nino: null, crn: null });
  });

  it('depend on the key', () => {
    const other = new IdentityHasher(randomBytes(32).toString('base64'));
    expect(hasher.hash('demo', 'utr', '1234567890')).not.toBe(other.hash('demo', 'utr', '1234567890'));
  });
});

describe('CIS_IDENTIFIER_HASH_KEY', () => {
  const key = randomBytes(32).toString('base64');
  const env = (overrides: Record<string, string>) => ({
    DATABASE_URL: 'postgres://cis@localhost/cis',
    CIS_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    CIS_IDENTIFIER_HASH_KEY: key,
    IDENTITY_URL: 'http://identity',
    NOTIFICATION_URL: 'http://notification',
    NOTIFICATION_TOKEN: 'x'.repeat(32),
    ...overrides,
  });

  it('is required, base64 of at least 32 bytes, and not one of the encryption keys', () => {
    expect(loadConfig(cisConfigSchema, env({})).CIS_IDENTIFIER_HASH_KEY).toBe(key);
    expect(() => loadConfig(cisConfigSchema, env({ CIS_IDENTIFIER_HASH_KEY: '' }))).toThrow(
      /CIS_IDENTIFIER_HASH_KEY: must be base64 of at least 32 random bytes/,
    );
    const short = randomBytes(16).toString('base64');
    expect(() => loadConfig(cisConfigSchema, env({ CIS_IDENTIFIER_HASH_KEY: short }))).toThrow(
      /CIS_IDENTIFIER_HASH_KEY: must be base64 of at least 32 random bytes/,
    );
    expect(() => loadConfig(cisConfigSchema, env({ CIS_ENCRYPTION_KEYS: `k1:${key}` }))).toThrow(
      /CIS_IDENTIFIER_HASH_KEY: must be a key of its own, not one of CIS_ENCRYPTION_KEYS/,
    );
    // The message never echoes the value.
    try {
      loadConfig(cisConfigSchema, env({ CIS_IDENTIFIER_HASH_KEY: short }));
    } catch (error) {
      expect(String(error)).not.toContain(short);
    }
  });
});
