// The drive's API contract for other packages, the web above all (ADR 0028): the request and response schemas, and
// the types of the views as the browser reads them. Browser-safe: the schemas import only zod, the drive's domain/
// and each other. The web imports this module with `import type` only, so no zod reaches its bundle.
import type { z } from 'zod';
import type { abilitiesResponse } from './me.schemas.js';
import type {
  declineResponse,
  signTaskListResponse,
  signTaskResponse,
  signTaskView,
} from './signatures.schemas.js';

export * from './me.schemas.js';
export * from './signatures.schemas.js';

/** GET /v1/me/abilities. */
export type DriveAbilitiesResponse = z.output<typeof abilitiesResponse>;

/** A signature request (GET /v1/signatures items; POST /v1/signatures and /sign answers carry one with a message). */
export type SignTaskView = z.output<typeof signTaskView>;
export type SignTaskResponse = z.output<typeof signTaskResponse>;
export type SignTaskListResponse = z.output<typeof signTaskListResponse>;
export type DeclineResponse = z.output<typeof declineResponse>;
