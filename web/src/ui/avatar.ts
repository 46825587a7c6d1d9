/** The avatar's five sizes in pixels and the status colours (plain data: the browser tests read them too). */
export type AvatarSize = 'xs' | 'sm' | 'md' | 'lg' | 'xl';
export type UserStatus = 'active' | 'busy' | 'unavailable';

export const avatarPixels: Record<AvatarSize, number> = { xs: 20, sm: 28, md: 36, lg: 48, xl: 72 };
export const statusColours: Record<UserStatus, string> = {
  active: '#22C55E',
  busy: '#F59E0B',
  unavailable: '#EF4444',
};

/** Where the browser keeps the user's own status (the local copy; identity holds the remote one). */
export const statusStorageKey = (uid: string): string => `workspace.status.${uid}`;
