// The audit service's API contract for other packages, the web above all (ADR 0028): the request and response
// schemas and the types of the views as the browser reads them. Browser-safe: the schemas import only zod and the
// service's domain/. The web imports this module with `import type` only, so no zod reaches its bundle.
import type { z } from 'zod';
import type {
  clientEventBody,
  clientEventResponse,
  entryListQuery,
  entryListResponse,
  entryView,
  publicKeyResponse,
  verifyResponse,
} from './entries.schemas.js';

export * from './entries.schemas.js';
export { CLIENT_ACTIONS, clientActions, type ClientAction } from '../domain/entries.js';

/** One entry (GET /v1/entries items; the live stream's `entry` event data). */
export type AuditEntryView = z.output<typeof entryView>;
/** GET /v1/entries. */
export type AuditEntryListResponse = z.output<typeof entryListResponse>;
/** GET /v1/entries (and /v1/entries.csv without page and pageSize) query, before defaults. */
export type AuditEntryListQuery = z.input<typeof entryListQuery>;
/** POST /v1/client-events (audit_logEvent). */
export type AuditClientEventRequest = z.input<typeof clientEventBody>;
export type AuditClientEventResponse = z.output<typeof clientEventResponse>;
/** POST /v1/verify. */
export type AuditVerifyResponse = z.output<typeof verifyResponse>;
/** GET /v1/checkpoints/public-key. */
export type AuditPublicKeyResponse = z.output<typeof publicKeyResponse>;
/** The live stream's `changed` event data: an entry too large to send; refetch the list. */
export interface AuditEntryChanged {
  seq: number;
  module: string;
}
