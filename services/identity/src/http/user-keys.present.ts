import type { z } from 'zod';
import type { UserPublicKey } from '../db/users.store.js';
import { USER_KEY_ALGORITHM } from '../domain/user-keys.js';
import type { publicKeyView } from './user-keys.schemas.js';

export const presentPublicKey = (key: UserPublicKey): z.input<typeof publicKeyView> => ({
  uid: key.uid,
  algorithm: USER_KEY_ALGORITHM,
  publicKey: key.publicKey,
  jwk: { kty: 'OKP', crv: 'X25519', x: key.publicKey },
  createdAt: key.createdAt.toISOString(),
});
