import { safeEqual } from '@workspace/kit';
import type { NextFunction, Request, Response } from 'express';

const PLACEHOLDER_ORIGIN = 'http://bff.invalid';

/**
 * Where to send the browser after sign-in: only a path on this origin. Anything that could leave it (absolute
 * URLs, protocol-relative `//host`, backslashes browsers read as slashes, control characters) becomes '/'.
 */
export function safeReturnTo(candidate: string | undefined): string {
  if (candidate === undefined || candidate.length === 0 || candidate.length > 2048) return '/';
  if (!candidate.startsWith('/') || candidate.startsWith('//')) return '/';
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(candidate)) return '/';
  let url: URL;
  try {
    url = new URL(candidate, PLACEHOLDER_ORIGIN);
  } catch {
    return '/';
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can normalise into a protocol-relative path: '/.//evil.example' becomes '//evil.example'.
  return path.startsWith('//') ? '/' : path;
}

/** The CSRF header must equal the session's token; compared in constant time for equal lengths. */
export function csrfTokensMatch(expected: string | undefined, provided: unknown): boolean {
  if (expected === undefined || expected.length === 0) return false;
  if (typeof provided !== 'string' || provided.length === 0) return false;
  return safeEqual(expected, provided);
}

/** Parses a Cookie header; the first occurrence of a name wins (as browsers send the most specific first). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator <= 0) continue;
    const name = part.slice(0, separator).trim();
    let value = part.slice(separator + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (!name || cookies.has(name)) continue;
    try {
      cookies.set(name, decodeURIComponent(value));
    } catch {
      cookies.set(name, value);
    }
  }
  return cookies;
}

/**
 * The Content-Security-Policy the SPAs run under (a Vite build: hashed script and style files from this origin).
 * `style-src 'unsafe-inline'` because antd (CSS-in-JS) injects style elements at run time; scripts stay 'self'
 * only, plus compiling WebAssembly ('wasm-unsafe-eval': the drive's uploader hashes files of up to 5 GiB in the
 * browser, which Web Crypto cannot do incrementally; it permits no JavaScript eval). Sign-in is a top-level redirect to the IdP, so neither `form-action` nor `connect-src` names it.
 *
 * `objectStore`: the region's object store as browsers reach it (ADR 0049). The drive's presigned URLs point there:
 * the browser PUTs upload parts to it (connect-src) and shows its images, video and audio, and PDFs in a frame or an
 * object (img-src, media-src, frame-src, object-src). Nothing else is allowed from it, and without it those
 * directives stay as they were ('self' only, object-src 'none').
 */
export function contentSecurityPolicyDirectives(
  https: boolean,
  objectStore?: string,
): Record<string, string[]> {
  const store = objectStore ? [objectStore] : [];
  return {
    defaultSrc: ["'self'"],
    // 'wasm-unsafe-eval' compiles WebAssembly only (the uploader's incremental SHA-256, hash-wasm), never JS eval.
    scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', ...store],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", ...store],
    ...(objectStore ? { mediaSrc: ["'self'", objectStore], frameSrc: ["'self'", objectStore] } : {}),
    objectSrc: objectStore ? [objectStore] : ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    ...(https ? { upgradeInsecureRequests: [] } : {}),
  };
}

/**
 * Powerful browser features the SPAs do not use, turned off for this origin and anything it embeds (review L18).
 * The calls module will allow camera, microphone and display-capture for 'self' when it exists.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

export function permissionsPolicy(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
  next();
}
