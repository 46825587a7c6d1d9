// The secrets of a share link (ADR 0047): its passcode, kept as a scrypt hash, and the short-lived viewer token a
// correct passcode gives, an HMAC under SHARE_LINK_SECRET.
import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { Logger } from '@workspace/kit';
import type { DriveConfig } from '../config.js';

const SCRYPT = { N: 16_384, r: 8, p: 1, keyLength: 32 };

function derive(passcode: string, salt: Buffer, params = SCRYPT): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      passcode,
      salt,
      params.keyLength,
      { N: params.N, r: params.r, p: params.p, maxmem: 64 * 1024 * 1024 },
      (error, key) => {
        if (error) reject(error);
        else resolve(key);
      },
    );
  });
}

/** `scrypt$N$r$p$salt$hash` (base64url), a fresh salt each time. */
export async function hashPasscode(passcode: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(passcode, salt);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

export async function passcodeMatches(passcode: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(passcode, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    keyLength: expected.length,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** What a viewer token says: the share, its tenant, who entered the passcode (null: signed out), until when. */
export interface ViewerClaims {
  shareId: string;
  tenantId: string;
  viewerId: string | null;
  expiresAt: number;
}

/**
 * Viewer tokens: `<claims>.<mac>` (base64url JSON, HMAC-SHA256). The MAC also covers a fingerprint of the share's
 * passcode hash, so setting a new passcode ends every token the old one gave.
 */
export class ViewerTokens {
  private readonly key: Buffer;

  constructor(config: DriveConfig, logger: Logger) {
    if (config.SHARE_LINK_SECRET) {
      this.key = Buffer.from(config.SHARE_LINK_SECRET, 'utf8');
    } else {
      logger.warn(
        'SHARE_LINK_SECRET is not set: share viewer tokens use a key of this process only (set it in production)',
      );
      this.key = randomBytes(32);
    }
  }

  private mac(body: string, passcodeHash: string): string {
    const fingerprint = createHash('sha256').update(passcodeHash).digest('base64url');
    return createHmac('sha256', this.key).update(`${body}.${fingerprint}`).digest('base64url');
  }

  issue(claims: ViewerClaims, passcodeHash: string): string {
    const body = Buffer.from(
      JSON.stringify({ s: claims.shareId, t: claims.tenantId, v: claims.viewerId, e: claims.expiresAt }),
    ).toString('base64url');
    return `${body}.${this.mac(body, passcodeHash)}`;
  }

  /** The token's claims when it is genuine, for this share and passcode, and not expired at `now`. */
  verify(token: string, passcodeHash: string, now: Date): ViewerClaims | undefined {
    const [body, mac] = token.split('.');
    if (!body || !mac) return undefined;
    const expected = Buffer.from(this.mac(body, passcodeHash));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as {
        s: string;
        t: string;
        v: string | null;
        e: number;
      };
      if (parsed.e <= now.getTime()) return undefined;
      return { shareId: parsed.s, tenantId: parsed.t, viewerId: parsed.v, expiresAt: parsed.e };
    } catch {
      return undefined;
    }
  }
}
