import { z } from 'zod';
import { USER_KEY_ALGORITHM } from '../domain/user-keys.js';

export const publicKeyParams = z.object({ uid: z.uuid() });

export const publicKeyView = z.object({
  uid: z.string(),
  algorithm: z.literal(USER_KEY_ALGORITHM),
  publicKey: z.string(),
  jwk: z.object({ kty: z.literal('OKP'), crv: z.literal('X25519'), x: z.string() }),
  createdAt: z.string(),
});
