// identity's API contract for other packages, the web above all (ADR 0028): the request and response schemas, and
// the types of the response views as the browser reads them. Browser-safe: the schemas import only zod, identity's
// domain/ and each other. The web imports this module with `import type` only, so no zod reaches its bundle.
import type { z } from 'zod';
import type { tenantModule } from '../domain/tenant.js';
import type { logoInput, logoView } from './tenant-logo.schemas.js';
import type { branding, footerSettings, tenantView } from './tenant.schemas.js';
import type { themePreference, userView } from './users.schemas.js';

export * from './auth.schemas.js';
export * from './available-scopes.schemas.js';
export * from './avatars.schemas.js';
export * from './me.schemas.js';
export * from './metadata.schemas.js';
export * from './module-role-bundles.schemas.js';
export * from './portal-links.schemas.js';
export * from './rate-limits.schemas.js';
export * from './role-bundles.schemas.js';
export * from './sessions.schemas.js';
export * from './signing-keys.schemas.js';
export * from './tenant-logo.schemas.js';
export * from './tenant.schemas.js';
export * from './user-keys.schemas.js';
export * from './users.schemas.js';

/** GET /v1/tenant (and the session's and sign-in's tenant). */
export type Tenant = z.output<typeof tenantView>;
export type TenantModule = z.output<typeof tenantModule>;
export type Branding = z.output<typeof branding>;
/** GET /v1/me (and the session's and sign-in's user, each item of GET /v1/users). */
export type User = z.output<typeof userView>;
export type ThemePreference = z.output<typeof themePreference>;
/** GET and PUT /v1/tenant/footer. */
export type FooterSettings = z.output<typeof footerSettings>;
export type FooterLink = FooterSettings['links'][number];
/** GET and PUT /v1/tenant/logo: what the logo is, not its bytes. */
export type LogoView = z.output<typeof logoView>;
/** PUT /v1/tenant/logo's body: a text logo or an image (base64). */
export type LogoInput = z.input<typeof logoInput>;
