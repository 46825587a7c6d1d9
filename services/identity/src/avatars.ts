// Users' avatars (workspace spec §9 "Avatar cache"): a user's profile photo, resized to at most 128 px and encoded as
// webp at quality 0.85, kept 7 days, fetched 5 at a time when warming a list, expired entries cleaned up hourly.
// The cache is the kit's TTL + LRU cache (preset `avatar`); docs/identity.md "Avatars".

import { createHash } from 'node:crypto';
import {
  ApiRouter,
  CACHE_PRESETS,
  HttpProblem,
  presetCache,
  problems,
  type BackgroundWorker,
  type CacheClock,
  type Logger,
  type TtlLruCache,
} from '@workspace/kit';
import sharp from 'sharp';
import { z } from 'zod';
import type { IdentityContext } from './context.js';

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

/** Runs the avatar cache's clean-up every hour. */
export class AvatarCleanupWorker implements BackgroundWorker {
  readonly name = 'avatar-cache-cleanup';
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly avatars: AvatarCache,
    private readonly logger: Logger,
    private readonly intervalMs: number = AVATAR.cleanupIntervalMs,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      const dropped = this.avatars.cleanUp();
      if (dropped > 0) this.logger.debug({ dropped }, 'expired avatars dropped');
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    return Promise.resolve();
  }
}

const uid = z.uuid();

/** GET /v1/users/:uid/avatar (the webp bytes) and POST /v1/users/avatars/warm (fetch a list's avatars ahead). */
export function avatarRoutes(context: IdentityContext, avatars: AvatarCache): ApiRouter {
  const subjects = (tenantId: string, uids: string[]) =>
    context.inTenant(tenantId, async (_store, trx) => {
      const rows = await trx('users')
        .whereIn('uid', uids)
        .select<{ uid: string; profile_photo_url: string | null }[]>('uid', 'profile_photo_url');
      return rows.map((row) => ({ tenantId, uid: row.uid, photoUrl: row.profile_photo_url }));
    });
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/users/:uid/avatar',
      summary: 'A user’s avatar: their profile photo at most 128 px, webp (cached 7 days)',
      request: { params: z.object({ uid }) },
      responses: {
        200: { description: 'image/webp' },
        404: { description: 'No such user, or no profile photo' },
        502: { description: 'The profile photo could not be fetched or read' },
      },
      handler: async ({ ctx, params, req, res }) => {
        const [subject] = await subjects(ctx.tenantId, [params.uid]);
        if (!subject) throw problems.notFound('User not found.');
        let avatar: Avatar | undefined;
        try {
          avatar = await avatars.avatar(subject);
        } catch (error) {
          context.logger.warn({ err: error, uid: subject.uid }, 'avatar could not be made');
          throw new HttpProblem(502, 'avatar_unavailable', 'The profile photo could not be fetched.');
        }
        if (!avatar) throw problems.notFound('This user has no profile photo.');
        const etag = `"${avatar.etag}"`;
        res.setHeader('ETag', etag);
        res.setHeader('Cache-Control', 'private, max-age=3600');
        if (req.headers['if-none-match'] === etag) {
          res.status(304).end();
          return;
        }
        res.type(avatar.contentType).send(avatar.image);
      },
    })
    .route({
      method: 'post',
      path: '/users/avatars/warm',
      summary: 'Fetch the avatars of a list of users ahead of showing them (5 at a time)',
      request: { body: z.object({ uids: z.array(uid).max(200) }) },
      responses: {
        200: {
          description: 'How many are ready; users whose photo failed',
          schema: z.object({ ready: z.number(), failed: z.array(z.string()) }),
        },
      },
      handler: async ({ ctx, body }) => avatars.warm(await subjects(ctx.tenantId, body.uids)),
    });
}
