import type { RequestHandler } from 'express';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import { problems } from './problem.js';

/** Who is calling, taken only from a verified access token (never from the request body or query). */
export interface RequestContext {
  tenantId: string;
  userId: string;
  role: string;
  scopes: ReadonlySet<string>;
  /** Set for a subcontractor's portal session: the one subcontractor it is limited to. */
  subcontractorId?: string;
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
  /** The spec's rule: a token without a role claim is a standard user. */
  role: z.string().min(1).default('standard'),
  scp: z.array(z.string()),
  /** Portal sessions carry the subcontractor they are limited to. */
  sctr: z.string().min(1).optional(),
});

export type AccessTokenClaims = z.infer<typeof accessTokenClaimsSchema>;

export interface AuthOptions {
  /** Key lookup: `remoteJwks(url)` in services, a local JWKS in tests. */
  keys: JWTVerifyGetKey;
  issuer: string;
  audience: string;
}

export function remoteJwks(url: string): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(url), { cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
}

/**
 * Verified tokens, kept until they expire so a token is verified once rather than on every request (an RSA
 * verification costs far more than the rest of a typical request). Bounded; the oldest entry goes first.
 */
class VerifiedTokenCache {
  private readonly entries = new Map<string, { ctx: RequestContext; expiresAt: number }>();

  constructor(private readonly maxEntries: number) {}

  get(token: string): RequestContext | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.ctx;
  }

  set(token: string, ctx: RequestContext, expiresAt: number): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, { ctx, expiresAt });
  }
}

/**
 * Verifies a bearer token (RS256, issuer, audience, expiry) when one is sent and sets `req.ctx`. A request
 * without a token passes through without a context; the route guards answer 401 for it.
 */
export function authenticate(options: AuthOptions & { cacheSize?: number }): RequestHandler {
  const cache = new VerifiedTokenCache(options.cacheSize ?? 10_000);
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
    jwtVerify(token, options.keys, {
      issuer: options.issuer,
      audience: options.audience,
      algorithms: ['RS256'],
      requiredClaims: ['exp'],
    })
      .then(({ payload }) => {
        const claims = accessTokenClaimsSchema.safeParse(payload);
        if (!claims.success) throw problems.unauthorized('The access token is missing required claims.');
        req.ctx = {
          tenantId: claims.data.tid,
          userId: claims.data.sub,
          role: claims.data.role,
          scopes: new Set(claims.data.scp),
          ...(claims.data.sctr === undefined ? {} : { subcontractorId: claims.data.sctr }),
        };
        if (typeof payload.exp === 'number') cache.set(token, req.ctx, payload.exp * 1000);
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
  /** Portal sessions (subcontractors) may call the route; staff routes refuse them whatever their scopes. */
  allowPortal?: boolean;
}

/** Route guard: the caller must hold every listed scope, else 403 naming the first one missing. */
export function requireScopes(scopes: string[], options: ScopeGuardOptions = {}): RequestHandler {
  return (req, _res, next) => {
    const ctx = req.ctx;
    if (!ctx) {
      next(problems.unauthorized());
      return;
    }
    if (ctx.subcontractorId !== undefined && !options.allowPortal) {
      next(problems.forbidden('This is not available to portal sessions.'));
      return;
    }
    const missing = scopes.find((scope) => !hasScope(ctx, scope));
    next(missing === undefined ? undefined : problems.forbidden(`This requires the ${missing} permission.`));
  };
}
