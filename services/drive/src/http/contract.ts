// The drive's API contract for other packages, the web above all (ADR 0028): the request and response schemas, and
// the types of the views as the browser reads them. Browser-safe: the schemas import only zod, the drive's domain/
// and each other. The web imports this module with `import type` only, so no zod reaches its bundle.
import type { z } from 'zod';
import type { abilitiesResponse } from './me.schemas.js';
import type { publicShareView, viewerTokenResponse } from './public-shares.schemas.js';
import type {
  createShareBody,
  rebuildResponse,
  shareDetailResponse,
  shareListResponse,
  shareSettingsBody,
  shareView,
} from './shares.schemas.js';

export * from './me.schemas.js';

/** GET /v1/me/abilities. */
export type DriveAbilitiesResponse = z.output<typeof abilitiesResponse>;

export * from './shares.schemas.js';
export * from './public-shares.schemas.js';

/** POST /v1/mutations/share (the body as the web sends it; defaults filled by the service). */
export type CreateShareRequest = z.input<typeof createShareBody>;
/** A share as the staff screens read it (the create, settings and revoke answers; a card of the list). */
export type ShareView = z.output<typeof shareView>;
/** GET /v1/shares: the cards and the toolbar's counts per status. */
export type ShareListResponse = z.output<typeof shareListResponse>;
/** GET /v1/shares/:shareId. */
export type ShareDetail = z.output<typeof shareDetailResponse>;
/** POST /v1/shares/:shareId/settings. */
export type ShareSettingsRequest = z.input<typeof shareSettingsBody>;
/** POST /v1/shares/:shareId/rebuild. */
export type ShareRebuildResponse = z.output<typeof rebuildResponse>;
/** GET /v1/public/shares/:shareId. */
export type PublicShareView = z.output<typeof publicShareView>;
/** POST /v1/public/shares/:shareId/unlock. */
export type ShareViewerToken = z.output<typeof viewerTokenResponse>;
