import {
  canManageShare,
  expiryTimestamp,
  SHARE_REFUSALS,
  shareFileRefusal,
  shareStatus,
  splitAllowedUids,
  watermarkable,
  watermarkRequired,
  watermarkText,
  type ShareFileFacts,
} from '../../src/domain/index.js';

describe('allowed user ids typed in Share Settings', () => {
  it("are split on commas, trimmed, empties dropped: 'a, ,b' → [a, b]", () => {
    expect(splitAllowedUids('a, ,b')).toEqual(['a', 'b']);
    expect(splitAllowedUids(' u1 ,u2,, u1 ')).toEqual(['u1', 'u2']);
    expect(splitAllowedUids('')).toEqual([]);
  });
});

describe('the expiry date', () => {
  it('becomes a full timestamp (a bare date: the end of that day, UTC), or null when empty', () => {
    expect(expiryTimestamp('2027-01-31')).toBe('2027-01-31T23:59:59.999Z');
    expect(expiryTimestamp('2027-01-31T12:00:00+01:00')).toBe('2027-01-31T11:00:00.000Z');
    expect(expiryTimestamp('')).toBeNull();
    expect(expiryTimestamp(null)).toBeNull();
    expect(() => expiryTimestamp('soon')).toThrow(RangeError);
  });
});

describe("a share's status", () => {
  const now = new Date('2026-11-27T10:00:00Z');
  it('is active until its expiry passes, expired from then, and expired once revoked', () => {
    expect(shareStatus({ expiresAt: null }, now)).toBe('active');
    expect(shareStatus({ expiresAt: '2026-11-27T10:00:01Z' }, now)).toBe('active');
    expect(shareStatus({ expiresAt: '2026-11-27T10:00:00Z' }, now)).toBe('expired');
    expect(shareStatus({ expiresAt: null, revokedAt: now }, now)).toBe('expired');
  });
});

describe('why a file cannot be shared', () => {
  const library = { id: 'lib', shareSourcePolicy: { externalAllowed: true } };
  const facts = (changes: Partial<ShareFileFacts> = {}): ShareFileFacts => ({
    file: { libraryId: 'lib' },
    library,
    drive: { allowExternalSharing: true },
    sourceLibraryId: 'lib',
    visibility: 'restricted',
    canRead: () => true,
    ...changes,
  });

  it('gives each reason of drive.md §8 verbatim, in order', () => {
    expect(shareFileRefusal(facts())).toBeUndefined();
    expect(shareFileRefusal(facts({ file: undefined }))).toBe('File not found');
    expect(shareFileRefusal(facts({ file: { libraryId: null } }))).toBe('No library assigned');
    expect(shareFileRefusal(facts({ library: undefined }))).toBe('Source library not found');
    expect(shareFileRefusal(facts({ sourceLibraryId: 'other' }))).toBe('No source library');
    expect(shareFileRefusal(facts({ canRead: () => false }))).toBe('No library access');
    expect(
      shareFileRefusal(
        facts({
          visibility: 'public',
          library: { id: 'lib', shareSourcePolicy: { externalAllowed: false } },
        }),
      ),
    ).toBe('External sharing not allowed from source library');
    expect(shareFileRefusal(facts({ visibility: 'public', drive: { allowExternalSharing: false } }))).toBe(
      'External sharing not allowed from source library',
    );
    // Inside the tenant the external rule does not apply.
    expect(
      shareFileRefusal(facts({ visibility: 'tenant', drive: { allowExternalSharing: false } })),
    ).toBeUndefined();
  });

  it("is 'Access check failed' when the access check throws", () => {
    expect(
      shareFileRefusal(
        facts({
          canRead: () => {
            throw new Error('identity down');
          },
        }),
      ),
    ).toBe(SHARE_REFUSALS.accessCheckFailed);
  });

  it("is 'Validation failed' when anything else in the check throws", () => {
    const broken = facts();
    Object.defineProperty(broken, 'file', {
      get: () => {
        throw new Error('bad record');
      },
    });
    expect(shareFileRefusal(broken)).toBe('Validation failed');
  });
});

describe('who manages a share', () => {
  const share = { createdBy: 'maker' };
  const caller = (userId: string, scopes: string[]) => ({ userId, scopes: new Set(scopes) });
  it('its maker, manage-all or drive.admin, and the exports share or revoke scope for their action', () => {
    expect(canManageShare(caller('maker', []), share, 'revoke')).toBe(true);
    expect(canManageShare(caller('x', ['drive.manage_all']), share, 'settings')).toBe(true);
    expect(canManageShare(caller('x', ['drive.admin']), share, 'rebuild')).toBe(true);
    expect(canManageShare(caller('x', ['drive.exports.share']), share, 'settings')).toBe(true);
    expect(canManageShare(caller('x', ['drive.exports.share']), share, 'revoke')).toBe(false);
    expect(canManageShare(caller('x', ['drive.exports.revoke']), share, 'revoke')).toBe(true);
    expect(canManageShare(caller('x', ['drive.file.read']), share, 'settings')).toBe(false);
  });
});

describe('watermarks', () => {
  it("apply when the share sets one or its library's shareSourcePolicy requires one", () => {
    expect(watermarkRequired({ watermark: true }, undefined)).toBe(true);
    expect(watermarkRequired({ watermark: false }, { shareSourcePolicy: { requireWatermark: true } })).toBe(
      true,
    );
    expect(watermarkRequired({ watermark: false }, { shareSourcePolicy: { requireWatermark: false } })).toBe(
      false,
    );
  });

  it('go on PDFs and images only', () => {
    expect(watermarkable('application/pdf')).toBe('pdf');
    expect(watermarkable('image/jpeg')).toBe('image');
    expect(watermarkable('text/plain')).toBeUndefined();
    expect(watermarkable('image/svg+xml')).toBeUndefined();
  });

  it('name the viewer, the time (UTC, dd/mm/yyyy) and the share', () => {
    expect(watermarkText('Anonymous viewer', new Date('2026-03-04T05:06:00Z'), 'Pack')).toBe(
      'Anonymous viewer - 04/03/2026 05:06 UTC - Pack',
    );
  });
});
