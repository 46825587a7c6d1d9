import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';

export interface IdpSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface AuthorizationRequest {
  authorizationUrl: string;
  /** Kept by the bff in its short-lived sign-in cookie and returned with the callback. */
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface VerifiedIdentity {
  subject: string;
  /** Only an email the IdP says it verified (used to link a first sign-in to an invited user). */
  email: string | undefined;
  name: string | undefined;
}

/**
 * OpenID Connect authorization code flow with PKCE against a tenant's IdP (openid-client). Discovery results are
 * cached per IdP settings (issuer, client id and a hash of the client secret), so a tenant whose OIDC client
 * settings change gets a configuration for the new settings on its next sign-in, on every replica (each reads the
 * tenant's settings per request); an entry is used for at most `ttlMs`, so the IdP's own changes (endpoints, keys)
 * are picked up too.
 */
export class OidcClients {
  private readonly configurations = new Map<
    string,
    { configuration: Promise<oidc.Configuration>; at: number }
  >();

  constructor(
    private readonly allowHttp: boolean,
    private readonly ttlMs = 3_600_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Forgets every cached configuration (e.g. after an operator changed a tenant's IdP by hand). */
  clear(): void {
    this.configurations.clear();
  }

  /** How many configurations are cached (tests). */
  get size(): number {
    return this.configurations.size;
  }

  private configuration(idp: IdpSettings): Promise<oidc.Configuration> {
    const secretHash = createHash('sha256').update(idp.clientSecret).digest('base64url');
    const key = `${idp.issuer}|${idp.clientId}|${secretHash}`;
    const cached = this.configurations.get(key);
    if (cached && this.now() - cached.at < this.ttlMs) return cached.configuration;
    for (const [other, entry] of this.configurations) {
      if (this.now() - entry.at >= this.ttlMs) this.configurations.delete(other);
    }
    const configuration = oidc.discovery(new URL(idp.issuer), idp.clientId, idp.clientSecret, undefined, {
      timeout: 10,
      // Plain http only for the local development IdP (OIDC_ALLOW_HTTP), never in production.
      // eslint-disable-next-line @typescript-eslint/no-deprecated
      ...(this.allowHttp ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
    const entry = { configuration, at: this.now() };
    // A failed discovery (IdP down) is not cached, so the next sign-in tries again.
    configuration.catch(() => {
      if (this.configurations.get(key) === entry) this.configurations.delete(key);
    });
    this.configurations.set(key, entry);
    return configuration;
  }

  async authorize(idp: IdpSettings, redirectUri: string, loginHint?: string): Promise<AuthorizationRequest> {
    const configuration = await this.configuration(idp);
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...(loginHint ? { login_hint: loginHint } : {}),
    });
    return { authorizationUrl: url.toString(), state, nonce, codeVerifier };
  }

  /** Exchanges the code (checking state, nonce and the PKCE verifier) and returns who signed in. */
  async complete(
    idp: IdpSettings,
    callbackUrl: string,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<VerifiedIdentity> {
    const configuration = await this.configuration(idp);
    const tokens = await oidc.authorizationCodeGrant(configuration, new URL(callbackUrl), {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('The IdP returned no ID token');
    return {
      subject: claims.sub,
      email: typeof claims.email === 'string' && claims.email_verified === true ? claims.email : undefined,
      name: typeof claims.name === 'string' ? claims.name : undefined,
    };
  }
}
