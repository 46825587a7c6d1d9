import { z } from 'zod';

const uid = z.uuid();

export const avatarParams = z.object({ uid });

export const warmBody = z.object({ uids: z.array(uid).max(200) });

export const warmedView = z.object({ ready: z.number(), failed: z.array(z.string()) });
