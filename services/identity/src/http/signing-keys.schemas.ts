import { z } from 'zod';

export const signingKeysView = z.object({
  items: z.array(
    z.object({
      kid: z.string(),
      createdAt: z.string(),
      retiredAt: z.string().nullable(),
      publishedUntil: z.string().nullable(),
      activatesAt: z.string(),
      signing: z.boolean(),
    }),
  ),
});

export const rotateBody = z.object({
  /** The new key signs at once (the replaced keys stay published until their tokens expire). */
  immediate: z.boolean().default(false),
  /** A leaked key: as immediate, and the replaced keys leave the JWKS at once, so their tokens stop verifying. */
  revoke: z.boolean().default(false),
});

export const rotatedView = z.object({ kid: z.string(), retired: z.array(z.string()) });

/** A public key of identity's access tokens (RS256), as JWKS publishes it. */
const publicJwk = z.object({
  kty: z.string(),
  n: z.string(),
  e: z.string(),
  kid: z.string(),
  alg: z.string(),
  use: z.string(),
});

export const jwksView = z.object({ keys: z.array(publicJwk) });
