import type { z } from 'zod';
import type { User } from '../db/users.store.js';
import type { userView } from './users.schemas.js';

export const presentUser = (user: User): z.input<typeof userView> => ({
  uid: user.uid,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
  displayName: user.displayName,
  username: user.username,
  role: user.role,
  status: user.status,
  themePreference: user.themePreference,
  profilePhotoUrl: user.profilePhotoUrl,
  teamIds: user.teamIds,
  siteIds: user.siteIds,
  bundleIds: user.bundleIds,
});
