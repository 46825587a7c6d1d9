// The portal's access rule (security review M3): access on, not archived, not deleted; and which changes end it.
import { portalAccessEnded, portalAccessOpen } from '../../src/domain/index.js';

const open = { portalAccess: true, archived: false, deletedAt: null };

describe('portal access', () => {
  it('is open only with access on, not archived and not deleted', () => {
    expect(portalAccessOpen(open)).toBe(true);
    expect(portalAccessOpen({ ...open, portalAccess: false })).toBe(false);
    expect(portalAccessOpen({ ...open, archived: true })).toBe(false);
    expect(portalAccessOpen({ ...open, deletedAt: new Date('2026-11-26T12:00:00Z') })).toBe(false);
  });

  it('is ended by a change that closes it, not by one that leaves it closed or opens it', () => {
    expect(portalAccessEnded(open, { ...open, portalAccess: false })).toBe(true);
    expect(portalAccessEnded(open, { ...open, archived: true })).toBe(true);
    expect(portalAccessEnded(open, open)).toBe(false);
    const closed = { ...open, portalAccess: false };
    expect(portalAccessEnded(closed, { ...closed, archived: true })).toBe(false);
    expect(portalAccessEnded(closed, open)).toBe(false);
  });
});
