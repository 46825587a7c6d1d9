/** The photo fields a user record may carry (the spec names three; identity's API spells the first profilePhotoUrl). */
export interface PhotoFields {
  profilePhotoURL?: string | null;
  profilePhotoUrl?: string | null;
  imageUrl?: string | null;
  photoURL?: string | null;
}

/** The user's photo: profilePhotoURL (or profilePhotoUrl), else imageUrl, else photoURL; null when none is set. */
export function photoOf(user: PhotoFields | null | undefined): string | null {
  if (!user) return null;
  for (const candidate of [user.profilePhotoURL, user.profilePhotoUrl, user.imageUrl, user.photoURL]) {
    if (typeof candidate === 'string' && candidate.trim()) return candidate;
  }
  return null;
}
