import { z } from 'zod';
import { clientActions } from '../domain/entries.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A date (YYYY-MM-DD, UTC midnight) or an ISO 8601 date-time with an offset. */
const instant = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  error: 'Must be a date (YYYY-MM-DD) or an ISO 8601 date-time',
});

/** GET /v1/entries and /v1/entries.csv: the filters (every one optional). */
export const entryFilterQuery = z
  .object({
    action: z.string().trim().min(1).max(200).optional(),
    actorId: z.string().trim().min(1).max(200).optional(),
    targetId: z.string().trim().min(1).max(200).optional(),
    /** From this instant (a date: its start, UTC), inclusive, by occurredAt. */
    from: instant.optional(),
    /** Up to this instant, exclusive (a date: through its end, UTC), by occurredAt. */
    to: instant.optional(),
  })
  .transform(({ from, to, ...rest }) => ({
    ...rest,
    ...(from ? { from: new Date(DATE_ONLY.test(from) ? `${from}T00:00:00Z` : from) } : {}),
    ...(to
      ? {
          to: DATE_ONLY.test(to)
            ? new Date(new Date(`${to}T00:00:00Z`).getTime() + 86_400_000)
            : new Date(to),
        }
      : {}),
  }));

export const entryListQuery = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(25),
  })
  .and(entryFilterQuery);

/** One entry as the staff screen reads it (and the live stream sends it). */
export const entryView = z.object({
  seq: z.number().int(),
  id: z.string(),
  action: z.string(),
  module: z.string(),
  targetId: z.string(),
  actorId: z.string(),
  occurredAt: z.string(),
  recordedAt: z.string(),
  /** The producer's CloudEvents source (/workspace/cis), or 'client' for audit_logEvent. */
  source: z.string(),
  sourceEventId: z.string(),
  payload: z.record(z.string(), z.string()),
  hash: z.string(),
  prevHash: z.string(),
});

export const entryListResponse = z.object({
  items: z.array(entryView),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

/** POST /v1/client-events (audit_logEvent): a client-side action; tenant and actor come from the token. */
export const clientEventBody = z.object({
  action: z.enum(clientActions, {
    error: `Must be one of the client actions: ${clientActions.join(', ')}`,
  }),
  targetId: z.string().trim().max(200).default(''),
  /** Identifiers, counts and formats (string, number or boolean values); personal details are left out. */
  payload: z
    .record(z.string().max(100), z.union([z.string().max(2_000), z.number(), z.boolean()]))
    .refine((payload) => Object.keys(payload).length <= 50, 'At most 50 payload keys')
    .default({}),
});

export const clientEventResponse = z.object({ accepted: z.literal(true), id: z.string() });

const chainBreak = z.object({
  seq: z.number().int(),
  reason: z.enum([
    'hash_mismatch',
    'prev_hash_mismatch',
    'reordered',
    'gap',
    'truncated',
    'checkpoint_mismatch',
    'bad_signature',
  ]),
  detail: z.string(),
});

/** POST /v1/verify. */
export const verifyResponse = z.object({
  tenantId: z.string(),
  ok: z.boolean(),
  entries: z.number().int(),
  head: z.object({ seq: z.number().int(), hash: z.string() }),
  checkpoint: z.object({ seq: z.number().int(), hash: z.string(), signedAt: z.string() }).optional(),
  firstBreak: chainBreak.optional(),
  checkedAt: z.string(),
});

/** GET /v1/checkpoints/public-key. */
export const publicKeyResponse = z.object({
  algorithm: z.literal('ed25519'),
  keyId: z.string(),
  /** SPKI PEM. */
  publicKeyPem: z.string(),
});
