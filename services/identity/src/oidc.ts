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
 * cached per issuer and client.
 */
export class OidcClients {
  private readonly configurations = new Map<string, Promise<oidc.Configuration>>();

  constructor(private readonly allowHttp: boolean) {}

  private configuration(idp: IdpSettings): Promise<oidc.Configuration> {
    const key = `${idp.issuer}|${idp.clientId}`;
    let configuration = this.configurations.get(key);
    if (!configuration) {
      configuration = oidc.discovery(new URL(idp.issuer), idp.clientId, idp.clientSecret, undefined, {
        timeout: 10,
        // Plain http only for the local development IdP (OIDC_ALLOW_HTTP), never in production.
        // eslint-disable-next-line @typescript-eslint/no-deprecated
        ...(this.allowHttp ? { execute: [oidc.allowInsecureRequests] } : {}),
      });
      // A failed discovery (IdP down) is not cached, so the next sign-in tries again.
      configuration.catch(() => this.configurations.delete(key));
      this.configurations.set(key, configuration);
    }
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
