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
  /** The IdP's ID token as issued: the id_token_hint of its RP-initiated logout later. */
  idToken: string;
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

  /**
   * The authorization URL, with `login_hint` when given and `prompt=login` when `prompt` is 'login' (the IdP asks
   * for credentials even while its own session is alive: 'Use another account').
   */
  async authorize(
    idp: IdpSettings,
    redirectUri: string,
    options: { loginHint?: string | undefined; prompt?: 'login' | undefined } = {},
  ): Promise<AuthorizationRequest> {
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
      ...(options.loginHint ? { login_hint: options.loginHint } : {}),
      ...(options.prompt ? { prompt: options.prompt } : {}),
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
    if (!claims || !tokens.id_token) throw new Error('The IdP returned no ID token');
    return {
      subject: claims.sub,
      email: typeof claims.email === 'string' && claims.email_verified === true ? claims.email : undefined,
      name: typeof claims.name === 'string' ? claims.name : undefined,
      idToken: tokens.id_token,
    };
  }

  /**
   * The IdP's RP-initiated logout URL (OpenID Connect RP-Initiated Logout 1.0): its end_session_endpoint from
   * discovery with the ID token as id_token_hint (when there is one), the client id and where to come back. Null
   * when the IdP publishes no end_session_endpoint (the caller's sign-out is then local only).
   */
  async endSessionUrl(
    idp: IdpSettings,
    input: { idToken?: string | undefined; postLogoutRedirectUri: string },
  ): Promise<string | null> {
    const configuration = await this.configuration(idp);
    if (!configuration.serverMetadata().end_session_endpoint) return null;
    return oidc
      .buildEndSessionUrl(configuration, {
        post_logout_redirect_uri: input.postLogoutRedirectUri,
        ...(input.idToken ? { id_token_hint: input.idToken } : {}),
      })
      .toString();
  }
}
