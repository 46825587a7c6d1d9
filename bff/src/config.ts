import { baseConfigSchema } from '@workspace/kit';
import { z } from 'zod';

/** The spec's tenant id pattern (identity validates the same). */
export const TENANT_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** The longest a staff session may last from its sign-in (ASVS 3.3.2 level 2: 12 hours). */
export const MAX_SESSION_SECONDS = 12 * 3600;

/** An origin only (scheme, host, port): the callback URL and cookie scope are derived from it. */
function isBareOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === ''
  );
}

const publicUrl = z
  .url()
  .refine(
    isBareOrigin,
    'PUBLIC_URL must be an http(s) origin without a path, e.g. https://workspace.example.com',
  )
  .transform((value) => new URL(value).origin);

/**
 * The bff has no database and no event bus, so it takes only the logging, tracing, shutdown, proxy, management
 * port and listen address settings of the kit's base schema.
 */
export const bffConfigSchema = baseConfigSchema
  .pick({
    LOG_LEVEL: true,
    OTEL_EXPORTER_OTLP_ENDPOINT: true,
    SHUTDOWN_TIMEOUT_MS: true,
    TRUST_PROXY: true,
    MANAGEMENT_PORT: true,
    LISTEN_HOST: true,
  })
  .extend({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    /** Where identity answers (internal address). */
    IDENTITY_URL: z.url().transform((value) => value.replace(/\/+$/, '')),
    /** Shared with identity: sign-in, refresh, logout and link redemption are the bff's alone. */
    INTERNAL_API_TOKEN: z.string().min(32),
    /** The browser-facing origin: the OIDC redirect URI is `${PUBLIC_URL}/api/auth/callback`; https means Secure cookies. */
    PUBLIC_URL: publicUrl,
    /** Seals the sign-in cookie and keys the session store; at least 32 characters. */
    SESSION_SECRET: z.string().min(32),
    /** The built web bundles (web/dist): served on this origin when set. */
    STATIC_DIR: z.string().min(1).optional(),
    /** The tenant `/api/auth/login` and `/api/metadata` fall back to when the browser names none (`demo` locally). */
    DEFAULT_TENANT: z.string().regex(TENANT_ID, 'DEFAULT_TENANT must be a tenant id').optional(),
    /** The cis service's address (internal); /api/cis/* is forwarded to `${CIS_URL}/v1`. */
    CIS_URL: z
      .url()
      .transform((value) => value.replace(/\/+$/, ''))
      .optional(),
    /** The drive's address (internal); /api/drive/* is forwarded to `${DRIVE_URL}/v1`, /api/public/shares/* to its public shares. */
    DRIVE_URL: z
      .url()
      .transform((value) => value.replace(/\/+$/, ''))
      .optional(),
    /**
     * The audit service's address (internal); /api/audit/* is forwarded to `${AUDIT_URL}/v1` (the audit screen, the
     * web's audit_logEvent as POST /api/audit/client-events). Unset: those answer 503, and the web's audit_logEvent
     * swallows that with a warning.
     */
    AUDIT_URL: z
      .url()
      .transform((value) => value.replace(/\/+$/, ''))
      .optional(),
    /**
     * The notification service's address (internal): the site's project requests (`POST /api/public/project-requests`)
     * go to `${NOTIFICATION_URL}/v1/project-requests`. Unset, that route answers 503.
     */
    NOTIFICATION_URL: z
      .url()
      .transform((value) => value.replace(/\/+$/, ''))
      .optional(),
    /**
     * The region's object store as browsers reach it (the drive's OBJECT_STORE_PUBLIC_URL): presigned upload and
     * download URLs point there, so the CSP lets the SPAs connect to it (uploads), show its images, media and PDFs
     * (previews). An origin only; unset, the CSP names no other origin.
     */
    OBJECT_STORE_PUBLIC_URL: z
      .url()
      .refine(isBareOrigin, 'OBJECT_STORE_PUBLIC_URL must be an http(s) origin without a path')
      .transform((value) => new URL(value).origin)
      .optional(),
    SERVICE_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(60_000),
    IDENTITY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /**
     * A staff session ends after this long without a request (30 minutes by default, ASVS 3.3.2), checked by the bff
     * on every request.
     */
    SESSION_IDLE_TIMEOUT_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .default(30 * 60),
    /**
     * A staff session ends this long after its sign-in however it is used (the refresh chain identity starts for it
     * ends then too): 12 hours by default and at most (ASVS 3.3.2), checked by the bff on every request.
     */
    SESSION_ABSOLUTE_TIMEOUT_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(MAX_SESSION_SECONDS, 'SESSION_ABSOLUTE_TIMEOUT_SECONDS may be 12 hours (43200) at most')
      .default(MAX_SESSION_SECONDS),
    /**
     * How long a session read from identity is served from this replica's memory (0: every request asks identity).
     * A sign-out or portal revocation made at another replica takes effect here within it (ADR 0025).
     */
    SESSION_CACHE_MS: z.coerce.number().int().min(0).max(10_000).default(1_000),
    /** Per client IP (and per signed-in user) for sign-in start, sign-in callback and portal link redemption. */
    SIGNIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(20),
    /** Per client IP for the unauthenticated tenant metadata (`GET /api/metadata`): a sign-in page asks once. */
    METADATA_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    /** Per staff user for portal invitations (`POST /api/portal/invite`), each of which sends an e-mail. */
    INVITE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    /** Per portal subcontractor for invoice submissions (`POST /api/portal/cis/invoices`). */
    PORTAL_SUBMIT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
    /**
     * Requests for a fresh portal sign-in link (`POST /api/portal/sign-in-links`) per e-mail address, and per client
     * IP, in a 15-minute window (ADR 0055): an address gets few links; an office behind one address still gets in.
     */
    PORTAL_LINK_REQUESTS_PER_ADDRESS: z.coerce.number().int().min(1).default(3),
    PORTAL_LINK_REQUESTS_PER_IP: z.coerce.number().int().min(1).default(20),
    /** Per client IP (and per signed-in user) for the public share page's calls (`/api/public/shares/*`). */
    PUBLIC_SHARE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
    /** Per staff user for client-side audit events (`POST /api/audit/client-events`, the web's audit_logEvent). */
    AUDIT_EVENT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
    /** Per client IP for the public site's project requests (`POST /api/public/project-requests`), per hour. */
    PROJECT_REQUEST_RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(5),
    /** Server-Sent-Event streams one user (or portal subcontractor) may hold open on one replica. */
    STREAMS_PER_USER: z.coerce.number().int().min(1).max(100).default(10),
    /** How often the sessions behind open streams are looked up; a stream of an ended session is closed. */
    STREAM_SESSION_CHECK_MS: z.coerce.number().int().min(10).max(300_000).default(30_000),
  });

export type BffConfig = z.infer<typeof bffConfigSchema>;

/** Cookies are Secure exactly when the public origin is https (plain http only for local runs). */
export const isSecureOrigin = (config: Pick<BffConfig, 'PUBLIC_URL'>): boolean =>
  config.PUBLIC_URL.startsWith('https:');

export const callbackUrl = (config: Pick<BffConfig, 'PUBLIC_URL'>): string =>
  `${config.PUBLIC_URL}/api/auth/callback`;

/**
 * Where the IdP sends the browser after its RP-initiated logout: the product's sign-in page (registered at the IdP
 * as the client's post-logout redirect URI).
 */
export const signedOutUrl = (config: Pick<BffConfig, 'PUBLIC_URL'>): string => `${config.PUBLIC_URL}/login`;
