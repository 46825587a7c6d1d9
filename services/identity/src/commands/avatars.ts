// Users' avatars (workspace spec §9 "Avatar cache"): a user's profile photo, resized to at most 128 px and encoded as
// webp at quality 0.85, kept 7 days, fetched 5 at a time when warming a list, expired entries cleaned up hourly.
// The cache is the kit's TTL + LRU cache (preset `avatar`); docs/identity.md "Avatars".

import { createHash } from 'node:crypto';
import { CACHE_PRESETS, presetCache, type CacheClock, type TtlLruCache } from '@workspace/kit';
import sharp from 'sharp';
import type { IdentityContext } from '../context.js';

export const AVATAR = CACHE_PRESETS.avatar;

/** The largest photo fetched (bytes); a larger one is refused rather than resized. */
export const AVATAR_SOURCE_MAX_BYTES = 10 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 5_000;

export interface Avatar {
  contentType: 'image/webp';
  image: Buffer;
  width: number;
  height: number;
  etag: string;
}

/** Resizes an image to fit 128 × 128 (never enlarging it) and encodes it as webp at quality 0.85 (85 of 100). */
export async function makeAvatar(source: Buffer): Promise<Avatar> {
  const { data, info } = await sharp(source, { limitInputPixels: 50_000_000 })
    .rotate()
    .resize({ width: AVATAR.maxPx, height: AVATAR.maxPx, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: Math.round(AVATAR.webpQuality * 100) })
    .toBuffer({ resolveWithObject: true });
  return {
    contentType: 'image/webp',
    image: data,
    width: info.width,
    height: info.height,
    etag: createHash('sha256').update(data).digest('hex').slice(0, 32),
  };
}

export type FetchPhoto = (url: string) => Promise<Buffer>;

/**
 * Fetches a profile photo over https (http only when `allowHttp`, for local development and tests), at most
 * AVATAR_SOURCE_MAX_BYTES, within 5 seconds.
 */
export function httpPhotoFetcher(options: { allowHttp: boolean }): FetchPhoto {
  return async (url) => {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && !(options.allowHttp && parsed.protocol === 'http:'))
      throw new Error('profile photo URL must be https');
    const response = await fetch(parsed, {
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      redirect: 'error',
    });
    if (!response.ok) throw new Error(`profile photo fetch answered ${response.status}`);
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > AVATAR_SOURCE_MAX_BYTES) throw new Error('profile photo too large');
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length > AVATAR_SOURCE_MAX_BYTES) throw new Error('profile photo too large');
    return bytes;
  };
}

export interface AvatarSubject {
  tenantId: string;
  uid: string;
  photoUrl: string | null;
}

/** The avatar cache: one per identity process, keyed by tenant, user and photo URL (a new photo is a new key). */
export class AvatarCache {
  readonly cache: TtlLruCache<string, Avatar>;

  constructor(
    private readonly fetchPhoto: FetchPhoto,
    options: { clock?: CacheClock } = {},
  ) {
    this.cache = presetCache<string, Avatar>('avatar', {
      sizeOf: (avatar) => avatar.image.length,
      ...(options.clock ? { clock: options.clock } : {}),
    });
  }

  private static key(subject: AvatarSubject): string {
    return `${subject.tenantId}\u0000${subject.uid}\u0000${subject.photoUrl ?? ''}`;
  }

  /** The user's avatar (from the cache, else fetched and made); undefined when they have no photo. */
  async avatar(subject: AvatarSubject): Promise<Avatar | undefined> {
    const url = subject.photoUrl;
    if (!url) return undefined;
    return this.cache.getOrLoad(AvatarCache.key(subject), async () => makeAvatar(await this.fetchPhoto(url)));
  }

  /**
   * Makes sure the users' avatars are cached, fetching at most 5 at a time (a batch is waited for before the next
   * starts). Returns how many are ready and which users' photos could not be fetched or read.
   */
  async warm(subjects: AvatarSubject[]): Promise<{ ready: number; failed: string[] }> {
    const withPhoto = subjects.filter((subject) => subject.photoUrl);
    let ready = 0;
    const failed: string[] = [];
    for (let start = 0; start < withPhoto.length; start += AVATAR.batchSize) {
      const batch = withPhoto.slice(start, start + AVATAR.batchSize);
      const results = await Promise.allSettled(batch.map((subject) => this.avatar(subject)));
      results.forEach((result, i) => {
        if (result.status === 'fulfilled') ready++;
        else failed.push(batch[i]?.uid ?? '');
      });
    }
    return { ready, failed };
  }

  /** Drops avatars older than 7 days; returns how many went. */
  cleanUp(): number {
    return this.cache.purgeExpired();
  }
}

/** The users' avatar subjects (those that exist), for the avatar cache. */
export function avatarSubjects(
  context: IdentityContext,
  tenantId: string,
  uids: string[],
): Promise<AvatarSubject[]> {
  return context.inTenant(tenantId, async (stores) =>
    (await stores.users.photos(uids)).map((photo) => ({ tenantId, ...photo })),
  );
}
