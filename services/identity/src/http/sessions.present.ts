import type { z } from 'zod';
import type { BffSession } from '../db/bff-sessions.store.js';
import type { sessionView } from './sessions.schemas.js';

export const presentSession = (session: BffSession): z.input<typeof sessionView> => ({
  kind: session.kind,
  value: session.valueSealed,
  expiresAt: session.expiresAt.getTime(),
});
