import type { FooterSettings, LogoView, Tenant, User } from '@workspace/identity/contract';
import type { z } from 'zod';
import type { footerView, logoView } from '../src/http/identity-forwards.js';
import type { tenantView } from '../src/identity-client.js';
import { userView } from '../src/identity-client.js';

/**
 * True when the bff's view takes everything identity answers (identity's view is assignable to it) and names every
 * member of it (nothing identity adds is dropped when the bff parses an answer). Otherwise `make typecheck` fails.
 */
type Mirrors<Bff, Identity extends Bff> = [Exclude<keyof Identity, keyof Bff>] extends [never] ? true : false;

describe("the bff's views of identity's answers", () => {
  it('name every member of identity’s contract, typed as identity types it (make typecheck proves it)', () => {
    const mirrored: [
      Mirrors<z.input<typeof userView>, User>,
      Mirrors<z.input<typeof tenantView>, Tenant>,
      Mirrors<z.input<typeof footerView>, FooterSettings>,
      Mirrors<z.input<typeof logoView>, LogoView>,
    ] = [true, true, true, true];
    expect(mirrored).toEqual([true, true, true, true]);
  });

  it('parse an answer of identity’s shape without dropping a member', () => {
    const user: User = {
      uid: 'u1',
      email: 'a@demo.test',
      firstName: 'A',
      lastName: 'B',
      displayName: 'A B',
      username: null,
      role: 'admin',
      status: 'active',
      themePreference: { mode: 'dark' },
      profilePhotoUrl: null,
      teamIds: ['t1'],
      siteIds: [],
      bundleIds: [],
    };
    expect(userView.parse(user)).toEqual(user);
  });
});
