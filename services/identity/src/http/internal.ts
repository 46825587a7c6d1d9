import { problems, safeEqual } from '@workspace/kit';
import type { Request } from 'express';

/**
 * The guard of endpoints only the bff (and operators) may call (sign-in, refresh, logout, link redemption, sessions,
 * rate limits, signing keys): they carry the shared internal token.
 */
export function internalOnly(internalToken: string): (req: Request) => void {
  return (req) => {
    const token = req.headers['x-internal-token'];
    if (typeof token !== 'string' || !safeEqual(token, internalToken)) {
      throw problems.unauthorized('This endpoint is for the backend-for-frontend only.');
    }
  };
}
