import { createServer, type Server } from 'node:http';
import { OidcClients } from '../src/clients/oidc.js';

/*
 * The IdP's end-session URL from its discovery document (RP-initiated logout), and the fallback when the IdP
 * publishes no end_session_endpoint: null, so the bff's sign-out is local only (docs/identity.md "Sign-out").
 */

let server: Server;
let issuer: string;
let endSession = true;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url !== '/.well-known/openid-configuration') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        ...(endSession ? { end_session_endpoint: `${issuer}/session/end` } : {}),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(() => {
  server.close();
});

const idp = () => ({ issuer, clientId: 'workspace', clientSecret: 'secret' });

describe('the IdP end-session URL', () => {
  it('is the end_session_endpoint with id_token_hint, client_id and post_logout_redirect_uri', async () => {
    endSession = true;
    const url = new URL(
      (await new OidcClients(true).endSessionUrl(idp(), {
        idToken: 'header.payload.signature',
        postLogoutRedirectUri: 'https://workspace.example.com/login',
      })) ?? '',
    );
    expect(`${url.origin}${url.pathname}`).toBe(`${issuer}/session/end`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      id_token_hint: 'header.payload.signature',
      client_id: 'workspace',
      post_logout_redirect_uri: 'https://workspace.example.com/login',
    });
  });

  it('is null when the IdP publishes no end_session_endpoint (the sign-out is then the product’s only)', async () => {
    endSession = false;
    expect(
      await new OidcClients(true).endSessionUrl(idp(), {
        postLogoutRedirectUri: 'https://workspace.example.com/login',
      }),
    ).toBeNull();
  });
});
