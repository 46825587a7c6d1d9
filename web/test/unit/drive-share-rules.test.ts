import type { Colleague } from '../../src/features/drive/shares/api';
import {
  emptyCandidatesText,
  shareCandidates,
  shareWithLabel,
  usersAvailable,
  usersSelected,
} from '../../src/features/drive/shares/colleagues';
import { expiryTimestamp, splitAllowedUids } from '@workspace/drive/domain';
import { formatBytes } from '../../src/features/drive/list/format';
import { refusalOf, shareAddress } from '../../src/share/shareLink';

const colleague = (uid: string, fields: Partial<Colleague> = {}): Colleague => ({
  uid,
  username: '',
  displayName: uid,
  fullName: '',
  email: `${uid}@demo.test`,
  ...fields,
});

describe('Share File: whom a file can be shared with', () => {
  const team = [
    colleague('me', { displayName: 'Me Myself' }),
    colleague('u1', { username: 'dbrick', displayName: 'Site Lead', fullName: 'Dave Brick' }),
    colleague('u2', { displayName: 'Anna Accounts', email: 'anna@books.test' }),
  ];

  it('never lists the current user', () => {
    expect(shareCandidates(team, 'me', '').map((c) => c.uid)).toEqual(['u1', 'u2']);
    expect(shareCandidates(team, 'me', 'myself')).toEqual([]);
  });

  it.each([
    ['username', 'DBRICK', 'u1'],
    ['display name', 'site lead', 'u1'],
    ['email', 'books.test', 'u2'],
    ['full name', 'dave brick', 'u1'],
  ])('matches the search on the %s', (_field, search, uid) => {
    expect(shareCandidates(team, 'me', search).map((c) => c.uid)).toEqual([uid]);
  });

  it("says 'No users found' for a search without a match, 'No other users in organization' when alone", () => {
    expect(emptyCandidatesText(2)).toBe('No users found');
    expect(emptyCandidatesText(0)).toBe('No other users in organization');
  });

  it('counts in the texts of the spec', () => {
    expect(usersAvailable(3)).toBe('3 user(s) available');
    expect(usersSelected(2)).toBe('2 user(s) selected');
    expect(shareWithLabel(2)).toBe('Share with 2 user(s)');
  });
});

describe('Share Settings', () => {
  it('splits the allowed ids on commas, trims them and drops empties', () => {
    expect(splitAllowedUids(' a, ,b ')).toEqual(['a', 'b']);
    expect(splitAllowedUids('  ')).toEqual([]);
  });

  it('turns an empty expiry into null (no expiry) and a day into a full timestamp', () => {
    expect(expiryTimestamp('')).toBeNull();
    expect(expiryTimestamp(null)).toBeNull();
    expect(expiryTimestamp('2026-12-31')).toBe('2026-12-31T23:59:59.999Z');
  });

  it('formats sizes in base 1024 with B, kB, MB, GB, TB', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 kB');
    expect(formatBytes(5 * 1024 ** 2)).toBe('5 MB');
    expect(formatBytes(3 * 1024 ** 4)).toBe('3 TB');
  });
});

describe('the public share page', () => {
  it('reads the share and its tenant from /share/{shareId}?tenantId=', () => {
    expect(shareAddress('/share/abc-123', '?tenantId=demo')).toEqual({
      shareId: 'abc-123',
      tenantId: 'demo',
    });
    expect(shareAddress('/share/abc-123', '')).toBeUndefined();
    expect(shareAddress('/share/abc/def', '?tenantId=demo')).toBeUndefined();
    expect(shareAddress('/share/', '?tenantId=demo')).toBeUndefined();
  });

  it("shows the passcode form, a sign-in, or the share's final state for each refusal", () => {
    expect(refusalOf(401, 'passcode_required')).toEqual({ kind: 'passcode' });
    expect(refusalOf(401, 'sign_in_required')).toEqual({ kind: 'sign-in' });
    expect(refusalOf(423, 'passcode_locked')).toEqual({ kind: 'locked' });
    expect(refusalOf(410, 'share_expired')).toEqual({ kind: 'expired' });
    expect(refusalOf(410, 'share_revoked')).toEqual({ kind: 'gone' });
    expect(refusalOf(403, 'not_shared_with_you')).toEqual({ kind: 'gone' });
    expect(refusalOf(404, 'share_not_found')).toEqual({ kind: 'missing' });
  });
});
