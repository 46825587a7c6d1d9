import { jest } from '@jest/globals';
import sharp from 'sharp';
import { AVATAR, AvatarCache, makeAvatar, type AvatarSubject } from '../src/commands/avatars.js';
import { AvatarCleanupWorker } from '../src/workers/avatar-cleanup.worker.js';

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .png()
    .toBuffer();

const DAY = 24 * 3_600_000;

describe('avatar images', () => {
  it('resizes a photo to at most 128 px, keeping its proportions, as webp', async () => {
    const wide = await makeAvatar(await photo(400, 300));
    expect(wide.contentType).toBe('image/webp');
    const meta = await sharp(wide.image).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 128, 96]);
    expect([wide.width, wide.height]).toEqual([128, 96]);

    const tall = await sharp((await makeAvatar(await photo(300, 1200))).image).metadata();
    expect([tall.width, tall.height]).toEqual([32, 128]);
  });

  it('does not enlarge a small photo', async () => {
    const meta = await sharp((await makeAvatar(await photo(64, 48))).image).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 64, 48]);
  });

  it('encodes at webp quality 0.85', async () => {
    expect(AVATAR.webpQuality).toBe(0.85);
    const gradient = await sharp(
      Buffer.from(Array.from({ length: 300 * 300 * 3 }, (_, i) => (i * 7) % 256)),
      {
        raw: { width: 300, height: 300, channels: 3 },
      },
    )
      .png()
      .toBuffer();
    const encode = (quality: number) =>
      sharp(gradient)
        .resize({ width: 128, height: 128, fit: 'inside', withoutEnlargement: true })
        .webp({ quality })
        .toBuffer();
    const avatar = await makeAvatar(gradient);
    expect(avatar.image.equals(await encode(85))).toBe(true);
    expect(avatar.image.equals(await encode(80))).toBe(false);
    expect(avatar.image.equals(await encode(90))).toBe(false);
  });
});

describe('avatar cache', () => {
  let source: Buffer;
  beforeAll(async () => {
    source = await photo(200, 200);
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  const subject = (uid: string): AvatarSubject => ({
    tenantId: 'demo',
    uid,
    photoUrl: `https://photos/${uid}`,
  });

  it('keeps an avatar 7 days, then fetches the photo again', async () => {
    jest.useFakeTimers();
    const fetchPhoto = jest.fn((_url: string) => Promise.resolve(source));
    const avatars = new AvatarCache(fetchPhoto);
    const first = await avatars.avatar(subject('u1'));
    expect(first?.width).toBe(128);
    jest.advanceTimersByTime(7 * DAY - 1);
    expect(await avatars.avatar(subject('u1'))).toBe(first);
    expect(fetchPhoto).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(2);
    await avatars.avatar(subject('u1'));
    expect(fetchPhoto).toHaveBeenCalledTimes(2);
  });

  it('a user without a photo has no avatar; a new photo URL is fetched anew', async () => {
    const fetchPhoto = jest.fn((_url: string) => Promise.resolve(source));
    const avatars = new AvatarCache(fetchPhoto);
    expect(await avatars.avatar({ tenantId: 'demo', uid: 'u1', photoUrl: null })).toBeUndefined();
    expect(fetchPhoto).not.toHaveBeenCalled();
    await avatars.avatar(subject('u1'));
    await avatars.avatar({ ...subject('u1'), photoUrl: 'https://photos/u1-new' });
    expect(fetchPhoto.mock.calls.map(([url]) => url)).toEqual(['https://photos/u1', 'https://photos/u1-new']);
  });

  it('warms a list 5 at a time: a batch finishes before the next starts; failures are reported', async () => {
    let running = 0;
    let most = 0;
    const started: string[] = [];
    const fetchPhoto = jest.fn(async (url: string) => {
      started.push(url);
      running++;
      most = Math.max(most, running);
      // Still running when the others of its batch start: their calls come before this turn ends.
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      if (url.endsWith('u7')) throw new Error('404');
      return source;
    });
    const avatars = new AvatarCache(fetchPhoto);
    const subjects = Array.from({ length: 12 }, (_, i) => subject(`u${i + 1}`));
    const result = await avatars.warm([...subjects, { tenantId: 'demo', uid: 'nophoto', photoUrl: null }]);
    expect(AVATAR.batchSize).toBe(5);
    expect(most).toBe(5);
    expect(fetchPhoto).toHaveBeenCalledTimes(12);
    expect(result).toEqual({ ready: 11, failed: ['u7'] });
    // A second warm finds them cached (the failed one is tried again).
    await avatars.warm(subjects);
    expect(fetchPhoto).toHaveBeenCalledTimes(13);
  });

  it('cleans up expired avatars every hour', async () => {
    jest.useFakeTimers();
    const avatars = new AvatarCache(() => Promise.resolve(source));
    await avatars.avatar(subject('u1'));
    const worker = new AvatarCleanupWorker(avatars, { debug: jest.fn() } as never);
    expect(AVATAR.cleanupIntervalMs).toBe(3_600_000);
    worker.start();
    jest.advanceTimersByTime(7 * DAY);
    // Still within its 7 days at the clean-up of hour 168; expired just after, dropped by the clean-up of hour 169
    // without anyone reading it.
    expect(avatars.cache.size).toBe(1);
    jest.advanceTimersByTime(3_600_000);
    expect(avatars.cache.size).toBe(0);
    await avatars.avatar(subject('u2'));
    jest.advanceTimersByTime(3_600_000);
    expect(avatars.cache.size).toBe(1);
    await worker.stop();
  });
});
