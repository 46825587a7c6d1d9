import { z } from 'zod';
import { USER_KEY_ALGORITHM } from '../commands/user-keys.js';
import type { UserPublicKey } from '../db/users.store.js';

export const publicKeyParams = z.object({ uid: z.uuid() });

export const publicKeyView = z.object({
  uid: z.string(),
  algorithm: z.literal(USER_KEY_ALGORITHM),
  publicKey: z.string(),
  jwk: z.object({ kty: z.literal('OKP'), crv: z.literal('X25519'), x: z.string() }),
  createdAt: z.string(),
});

export const presentPublicKey = (key: UserPublicKey): z.output<typeof publicKeyView> => ({
  uid: key.uid,
  algorithm: USER_KEY_ALGORITHM,
  publicKey: key.publicKey,
  jwk: { kty: 'OKP', crv: 'X25519', x: key.publicKey },
  createdAt: key.createdAt.toISOString(),
});
