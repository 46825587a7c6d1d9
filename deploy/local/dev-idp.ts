// The development OpenID Connect provider (the `oidc-provider` package): a real OIDC server with its own sign-in
// page, for `make up` and the tests. It knows the seeded users and their password; the product signs in against it
// exactly as it would against a tenant's IdP (authorization code + PKCE).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

export interface DevAccount {
  /** The IdP subject (`<tenant>:<email>` for seeded users). */
  subject: string;
  email: string;
  name: string;
  password: string;
}

export interface DevClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  /** Where RP-initiated logout may send the browser back to (the product's sign-in page). */
  postLogoutRedirectUris?: string[];
}

export interface DevIdpOptions {
  port: number;
  host?: string;
  /** Public issuer URL; defaults to http://localhost:<port>. */
  issuer?: string;
  clients: DevClient[];
  accounts: DevAccount[];
}

export interface RunningDevIdp {
  issuer: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

/**
 * The provider's storage (sessions, interactions, codes, grants), in memory: a development IdP forgets them on
 * restart, and users just sign in again. Written out so the lifetimes and storage are deliberate, not defaults.
 */
type Stored = Map<string, { payload: Record<string, unknown>; expiresAt: number }>;

class MemoryAdapter {
  private static readonly stores = new Map<string, Stored>();
  private readonly store: Stored;

  constructor(name: string) {
    const existing = MemoryAdapter.stores.get(name);
    this.store = existing ?? (new Map() as Stored);
    if (!existing) MemoryAdapter.stores.set(name, this.store);
  }

  upsert(id: string, payload: Record<string, unknown>, expiresIn: number): Promise<void> {
    this.store.set(id, { payload, expiresAt: Date.now() + expiresIn * 1000 });
    return Promise.resolve();
  }

  find(id: string): Promise<Record<string, unknown> | undefined> {
    const entry = this.store.get(id);
    if (!entry || entry.expiresAt <= Date.now()) return Promise.resolve(undefined);
    return Promise.resolve(entry.payload);
  }

  findByUid(uid: string): Promise<Record<string, unknown> | undefined> {
    for (const [id, entry] of this.store) if (entry.payload.uid === uid) return this.find(id);
    return Promise.resolve(undefined);
  }

  findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined> {
    for (const [id, entry] of this.store) if (entry.payload.userCode === userCode) return this.find(id);
    return Promise.resolve(undefined);
  }

  consume(id: string): Promise<void> {
    const entry = this.store.get(id);
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    return Promise.resolve();
  }

  destroy(id: string): Promise<void> {
    this.store.delete(id);
    return Promise.resolve();
  }

  revokeByGrantId(grantId: string): Promise<void> {
    for (const [id, entry] of this.store) if (entry.payload.grantId === grantId) this.store.delete(id);
    return Promise.resolve();
  }
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function loginPage(uid: string, loginHint: string, error?: string): string {
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign in · Workspace</title>
<style>
  body{margin:0;font-family:Inter,system-ui,sans-serif;background:#f5f7fb;color:#1f2937;display:grid;place-items:center;min-height:100vh}
  main{background:#fff;padding:2rem 2.25rem;border-radius:12px;box-shadow:0 8px 30px rgba(15,23,42,.08);width:min(360px,90vw)}
  h1{font-size:1.25rem;margin:0 0 .25rem} p{margin:0 0 1.25rem;color:#6b7280;font-size:.875rem}
  label{display:block;font-size:.875rem;margin:.75rem 0 .25rem}
  input{width:100%;box-sizing:border-box;padding:.6rem .75rem;border:1px solid #d1d5db;border-radius:8px;font-size:1rem}
  button{margin-top:1.25rem;width:100%;padding:.65rem;border:0;border-radius:8px;background:#1677ff;color:#fff;font-size:1rem;cursor:pointer}
  .error{background:#fef2f2;color:#b91c1c;padding:.6rem .75rem;border-radius:8px;font-size:.875rem;margin-bottom:.5rem}
</style></head>
<body><main>
  <h1>Sign in to Workspace</h1>
  <p>Development identity provider</p>
  ${error ? `<div class="error" role="alert">${escapeHtml(error)}</div>` : ''}
  <form method="post" action="/interaction/${escapeHtml(uid)}/login" autocomplete="on">
    <label for="email">Email</label>
    <input id="email" name="email" type="email" required autofocus value="${escapeHtml(loginHint)}">
    <label for="password">Password</label>
    <input id="password" name="password" type="password" required>
    <button type="submit">Sign in</button>
  </form>
</main></body></html>`;
}

/**
 * RP-initiated logout: oidc-provider asks "Do you want to sign out?" by default, which leaves the user on the IdP's
 * page wondering. The product has already signed out when it sends the browser here, so the page says what happens
 * and submits the provider's form itself (its xsrf value, `logout=yes`: the IdP session ends); without script the
 * one button does the same.
 */
function logoutPage(form: string): string {
  const yes = form.replace('</form>', '<input type="hidden" name="logout" value="yes"></form>');
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Signing out · Workspace</title>
<style>
  body{margin:0;font-family:Inter,system-ui,sans-serif;background:#f5f7fb;color:#1f2937;display:grid;place-items:center;min-height:100vh}
  main{background:#fff;padding:2rem 2.25rem;border-radius:12px;box-shadow:0 8px 30px rgba(15,23,42,.08);width:min(360px,90vw)}
  h1{font-size:1.25rem;margin:0 0 .75rem}
  button{margin-top:1rem;width:100%;padding:.65rem;border:0;border-radius:8px;background:#1677ff;color:#fff;font-size:1rem;cursor:pointer}
</style></head>
<body><main>
  <h1>Signing you out…</h1>
  ${yes}
  <button type="submit" form="op.logoutForm">Continue</button>
</main>
<script>document.getElementById('op.logoutForm').submit();</script>
</body></html>`;
}

/** After a logout that names no post-logout redirect URI: a page that says so, not a dead end. */
const signedOutPage = `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>Signed out · Workspace</title></head>
<body style="font-family:Inter,system-ui,sans-serif;display:grid;place-items:center;min-height:100vh">
<main><h1>You are signed out</h1><p>You can close this window, or go back to Workspace and sign in again.</p></main>
</body></html>`;

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 16_384) throw new Error('form too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const samePassword = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

export async function startDevIdp(options: DevIdpOptions): Promise<RunningDevIdp> {
  const issuer = options.issuer ?? `http://localhost:${options.port}`;
  const accounts = new Map(options.accounts.map((account) => [account.subject, account]));
  const byEmail = new Map(options.accounts.map((account) => [account.email.toLowerCase(), account]));
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: client.redirectUris,
      post_logout_redirect_uris: client.postLogoutRedirectUris ?? [],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    findAccount: (_ctx: KoaContextWithOIDC, id: string) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({ sub: id, email: account.email, email_verified: true, name: account.name }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx: KoaContextWithOIDC, form: string) => {
          ctx.type = 'html';
          ctx.body = logoutPage(form);
        },
        postLogoutSuccessSource: (ctx: KoaContextWithOIDC) => {
          ctx.type = 'html';
          ctx.body = signedOutPage;
        },
      },
    },
    adapter: MemoryAdapter,
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 120,
      IdToken: 600,
      Interaction: 900,
      Session: 8 * 3600,
      Grant: 8 * 3600,
    },
    pkce: { required: () => true },
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'dev-idp', alg: 'RS256', use: 'sig' }] },
    renderError: (ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }) => {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `Sign-in error: ${out.error}${out.error_description ? ` (${out.error_description})` : ''}`;
    },
  });
  const callback = provider.callback();

  const interaction = async (req: IncomingMessage, res: ServerResponse, uid: string, action: string) => {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    const send = (status: number, html: string) => {
      res.writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy':
          "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:",
      });
      res.end(html);
    };
    const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
    if (details.prompt.name === 'login') {
      if (action === 'login' && req.method === 'POST') {
        const form = await readForm(req);
        const account = byEmail.get((form.get('email') ?? '').trim().toLowerCase());
        if (!account || !samePassword(form.get('password') ?? '', account.password)) {
          send(401, loginPage(uid, form.get('email') ?? '', 'Incorrect email or password.'));
          return;
        }
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: account.subject } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      send(200, loginPage(uid, hint));
      return;
    }
    // Consent: the product's own client is trusted, so its requested scopes and claims are granted.
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({
          accountId: details.session?.accountId ?? '',
          clientId: String(details.params.client_id),
        });
    if (!grant) throw new Error('grant not found');
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  };

  const server = createServer((req, res) => {
    const match = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/(login))?\/?(?:\?.*)?$/.exec(req.url ?? '');
    if (!match?.[1]) {
      void callback(req, res);
      return;
    }
    interaction(req, res, match[1], match[2] ?? '').catch(() => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('This sign-in attempt has expired. Go back to Workspace and sign in again.');
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host ?? '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    issuer,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
