import { hkdfSync } from 'node:crypto';
import { FieldCipher } from '@workspace/kit';
import type { CookieOptions } from 'express';
import { z } from 'zod';
import { TENANT_ID } from './config.js';

export const SESSION_COOKIE = 'ws_session';
export const SIGNIN_COOKIE = 'ws_signin';
export const PORTAL_COOKIE = 'ws_portal';

export interface CookieNames {
  session: string;
  portal: string;
  signIn: string;
}

/**
 * The cookies' names. On https they carry the prefixes browsers enforce (review L3): `__Host-` (Secure, Path=/, no
 * Domain), so no sibling subdomain can set or shadow the session cookies (cookie tossing); the sign-in cookie's path
 * is /api/auth, so it is `__Secure-`. Plain http (local runs) cannot use them.
 */
export const cookieNames = (secure: boolean): CookieNames =>
  secure
    ? {
        session: `__Host-${SESSION_COOKIE}`,
        portal: `__Host-${PORTAL_COOKIE}`,
        signIn: `__Secure-${SIGNIN_COOKIE}`,
      }
    : { session: SESSION_COOKIE, portal: PORTAL_COOKIE, signIn: SIGNIN_COOKIE };

/** The sign-in cookie lives while the browser is at the IdP; it is sent only to the auth routes. */
export const SIGNIN_TTL_MS = 10 * 60_000;
const SIGNIN_PATH = '/api/auth';

/** httpOnly, SameSite=Lax (the IdP's redirect back is a top-level GET, which Lax lets through), Secure on https. */
export function cookieOptions(secure: boolean, extra: CookieOptions = {}): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure, path: '/', ...extra };
}

export const signInCookieOptions = (secure: boolean): CookieOptions =>
  cookieOptions(secure, { path: SIGNIN_PATH, maxAge: SIGNIN_TTL_MS });

/** Options that clear a cookie must name the same path it was set with. */
export const clearSignInCookieOptions = (secure: boolean): CookieOptions =>
  cookieOptions(secure, { path: SIGNIN_PATH });

/** What the bff must remember between sending the browser to the IdP and its return. */
const pendingSignIn = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  codeVerifier: z.string().min(43).max(128),
  tenantId: z.string().regex(TENANT_ID),
  returnTo: z.string().startsWith('/'),
  /** Epoch milliseconds; the cookie's max-age is not trusted on its own. */
  expiresAt: z.number().int(),
});

export type PendingSignIn = z.infer<typeof pendingSignIn>;

/**
 * Seals the pending sign-in into the `ws_signin` cookie with AES-256-GCM (the kit's FieldCipher) under a key
 * derived from SESSION_SECRET: the browser can neither read the PKCE verifier nor alter the tenant or returnTo.
 */
export class SignInSealer {
  private readonly cipher: FieldCipher;

  constructor(
    secret: string,
    private readonly now: () => number = Date.now,
  ) {
    const key = Buffer.from(hkdfSync('sha256', secret, 'workspace-bff', 'ws_signin cookie', 32));
    this.cipher = new FieldCipher({ signin: key.toString('base64') }, 'signin');
  }

  seal(pending: Omit<PendingSignIn, 'expiresAt'>): string {
    return this.cipher.encrypt(JSON.stringify({ ...pending, expiresAt: this.now() + SIGNIN_TTL_MS }));
  }

  /** The pending sign-in, or undefined when the cookie is missing, forged, from another secret or expired. */
  open(sealed: string | undefined): PendingSignIn | undefined {
    if (!sealed) return undefined;
    let plaintext: string;
    try {
      plaintext = this.cipher.decrypt(sealed);
    } catch {
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(plaintext);
    } catch {
      return undefined;
    }
    const parsed = pendingSignIn.safeParse(json);
    if (!parsed.success || parsed.data.expiresAt <= this.now()) return undefined;
    return parsed.data;
  }
}
