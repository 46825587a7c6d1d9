import type { RequestHandler } from 'express';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { normalizeRole } from '@workspace/rules';
import { z } from 'zod';
import { problems } from './problem.js';

/** The role rule (workspace.md §6) is the browser-safe rules package's, re-exported for services. */
export { normalizeRole, type Role } from '@workspace/rules';

/** Who is calling, taken only from a verified access token (never from the request body or query). */
export interface RequestContext {
  tenantId: string;
  userId: string;
  /** The role: from a verified token, the claim normalised by `normalizeRole` (admin, else standard). */
  role: string;
  scopes: ReadonlySet<string>;
  /** Set for a subcontractor's portal session: the one subcontractor it is limited to. */
  subcontractorId?: string;
  /** When the access token expires (epoch ms): what the caller may do ends then (e.g. a stream it opened). */
  expiresAt?: number;
}

declare module 'express-serve-static-core' {
  interface Request {
    ctx?: RequestContext;
  }
}

/** The claims identity puts in an access token. */
export const accessTokenClaimsSchema = z.object({
  sub: z.string().min(1),
  tid: z.string().min(1),
  /** Normalised by `normalizeRole`: a token without a role claim, or with an unknown one, is a standard user. */
  role: z.preprocess(normalizeRole, z.enum(['admin', 'standard'])),
  scp: z.array(z.string()),
  /** Portal sessions carry the subcontractor they are limited to. */
  sctr: z.string().min(1).optional(),
});

export type AccessTokenClaims = z.infer<typeof accessTokenClaimsSchema>;

/**
 * What a key lookup may also say about itself (jose's remote and local JWKS sets do, and identity's own keys): the
 * keys it holds now and, for a remote set, whether its copy is still fresh and how to fetch it again.
 */
export interface KeySetView {
  jwks?: () => { keys: { kid?: string }[] } | undefined;
  fresh?: boolean;
  coolingDown?: boolean;
  reloading?: boolean;
  reload?: () => Promise<void>;
}

export interface AuthOptions {
  /** Key lookup: `remoteJwks(url)` in services, a local JWKS in tests. */
  keys: JWTVerifyGetKey & KeySetView;
  issuer: string;
  audience: string;
}

export interface RemoteJwksOptions {
  /** After a fetch, a token naming an unknown key fetches again only this much later. Default 30 s. */
  cooldownMs?: number;
  /** A fetched JWKS is fetched again when a token is verified this much later. Default 10 minutes. */
  maxAgeMs?: number;
}

/** A token naming a key the fetched JWKS lacks fetches it again at most this often (jose's default). */
export const DEFAULT_JWKS_COOLDOWN_MS = 30_000;

export function remoteJwks(url: string, options: RemoteJwksOptions = {}): JWTVerifyGetKey & KeySetView {
  return createRemoteJWKSet(new URL(url), {
    cooldownDuration: options.cooldownMs ?? DEFAULT_JWKS_COOLDOWN_MS,
    cacheMaxAge: options.maxAgeMs ?? 10 * 60_000,
  });
}

/** How often a stale remote JWKS is fetched again for tokens served from the cache (also after a failed fetch). */
const STALE_KEYS_RETRY_MS = 30_000;
/** The key ids are read again from the key lookup at least this often (it may reload by itself, e.g. identity's). */
const KEY_IDS_MAX_AGE_MS = 1_000;

/**
 * The ids of the keys the lookup holds now, so a verified token whose key has since left the JWKS (purged after a
 * rotation or a leak) is not served from the cache any more. Read again after every use of the lookup (it may have
 * fetched the JWKS), after a refresh this class starts, and at least every second. A remote JWKS past its max age is
 * fetched again in the background when a cached token is used (tokens served from the cache never reach the lookup
 * otherwise), at most every 30 s. A lookup that cannot list its keys is not checked.
 */
class PublishedKeyIds {
  private ids: ReadonlySet<string> | undefined;
  private readAt = Number.NEGATIVE_INFINITY;
  private stale = true;
  private lastRefresh = Number.NEGATIVE_INFINITY;

  constructor(private readonly keys: JWTVerifyGetKey & KeySetView) {}

  /** The lookup for jwtVerify: marks the ids to be read again once it has run. */
  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    try {
      return await this.keys(header, token);
    } finally {
      this.stale = true;
    }
  };

  /** False when the lookup lists its keys and `kid` is not among them. */
  holds(kid: string | undefined): boolean {
    this.refreshIfOld();
    if (kid === undefined) return true;
    const ids = this.current();
    return ids === undefined || ids.has(kid);
  }

  private current(): ReadonlySet<string> | undefined {
    if (!this.keys.jwks) return undefined;
    const now = Date.now();
    if (this.stale || now - this.readAt >= KEY_IDS_MAX_AGE_MS) {
      const jwks = this.keys.jwks();
      this.ids = jwks === undefined ? undefined : new Set(jwks.keys.flatMap((key) => key.kid ?? []));
      this.readAt = now;
      this.stale = false;
    }
    return this.ids;
  }

  private refreshIfOld(): void {
    const { keys } = this;
    if (keys.fresh !== false || keys.reloading === true || !keys.reload) return;
    const now = Date.now();
    if (now - this.lastRefresh < STALE_KEYS_RETRY_MS) return;
    this.lastRefresh = now;
    keys
      .reload()
      .catch(() => undefined) // identity unreachable: the cached tokens stay valid until it answers again
      .finally(() => {
        this.stale = true;
      });
  }
}

/**
 * Verified tokens, kept until they expire so a token is verified once rather than on every request (an RSA
 * verification costs far more than the rest of a typical request). Bounded; the oldest entry goes first. An entry
 * whose signing key is no longer published is dropped (and the token verified again, which then fails).
 */
class VerifiedTokenCache {
  private readonly entries = new Map<
    string,
    { ctx: RequestContext; expiresAt: number; kid: string | undefined }
  >();

  constructor(
    private readonly maxEntries: number,
    private readonly keyIds: PublishedKeyIds,
  ) {}

  get(token: string): RequestContext | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now() || !this.keyIds.holds(entry.kid)) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.ctx;
  }

  set(token: string, ctx: RequestContext, expiresAt: number, kid: string | undefined): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, { ctx, expiresAt, kid });
  }
}

/**
 * Verifies a bearer token (RS256, issuer, audience, expiry) when one is sent and sets `req.ctx`. A request
 * without a token passes through without a context; the route guards answer 401 for it.
 */
export function authenticate(options: AuthOptions & { cacheSize?: number }): RequestHandler {
  const keyIds = new PublishedKeyIds(options.keys);
  const cache = new VerifiedTokenCache(options.cacheSize ?? 10_000, keyIds);
  return (req, _res, next) => {
    const header = req.headers.authorization;
    if (header === undefined) {
      next();
      return;
    }
    const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
    if (!token) {
      next(problems.unauthorized('The Authorization header must carry a bearer token.'));
      return;
    }
    const cached = cache.get(token);
    if (cached) {
      req.ctx = cached;
      next();
      return;
    }
    jwtVerify(token, keyIds.getKey, {
      issuer: options.issuer,
      audience: options.audience,
      algorithms: ['RS256'],
      requiredClaims: ['exp'],
      // RFC 9068: only an access token is accepted as one, never an ID token or another JWT signed by the same key.
      typ: 'at+jwt',
    })
      .then(({ payload, protectedHeader }) => {
        const claims = accessTokenClaimsSchema.safeParse(payload);
        if (!claims.success) throw problems.unauthorized('The access token is missing required claims.');
        req.ctx = {
          tenantId: claims.data.tid,
          userId: claims.data.sub,
          role: claims.data.role,
          scopes: new Set(claims.data.scp),
          ...(claims.data.sctr === undefined ? {} : { subcontractorId: claims.data.sctr }),
          ...(typeof payload.exp === 'number' ? { expiresAt: payload.exp * 1000 } : {}),
        };
        if (typeof payload.exp === 'number')
          cache.set(token, req.ctx, payload.exp * 1000, protectedHeader.kid);
        next();
      })
      .catch((error: unknown) => {
        if (error instanceof joseErrors.JWTExpired)
          next(problems.unauthorized('The access token has expired.'));
        else if (error instanceof joseErrors.JOSEError)
          next(problems.unauthorized('The access token is not valid.'));
        else next(error);
      });
  };
}

/** `*` grants every scope; otherwise the exact scope must be held (identity expands implications). */
export function hasScope(ctx: RequestContext, scope: string): boolean {
  return ctx.scopes.has('*') || ctx.scopes.has(scope);
}

export function requireContext(ctx: RequestContext | undefined): RequestContext {
  if (!ctx) throw problems.unauthorized();
  return ctx;
}

export interface ScopeGuardOptions {
  /**
   * Who may call: `staff` (the default) refuses portal sessions whatever their scopes; `portal` is a route of the
   * subcontractor portal and refuses anything but a portal session (a staff token, even with every scope).
   */
  audience?: 'staff' | 'portal';
}

/** Route guard: the caller must hold every listed scope, else 403 naming the first one missing. */
export function requireScopes(scopes: string[], options: ScopeGuardOptions = {}): RequestHandler {
  return (req, _res, next) => {
    const ctx = req.ctx;
    if (!ctx) {
      next(problems.unauthorized());
      return;
    }
    const portalSession = ctx.subcontractorId !== undefined;
    if (portalSession && options.audience !== 'portal') {
      next(problems.forbidden('This is not available to portal sessions.'));
      return;
    }
    if (!portalSession && options.audience === 'portal') {
      next(problems.forbidden('This is for portal sessions.'));
      return;
    }
    const missing = scopes.find((scope) => !hasScope(ctx, scope));
    next(missing === undefined ? undefined : problems.forbidden(`This requires the ${missing} permission.`));
  };
}
