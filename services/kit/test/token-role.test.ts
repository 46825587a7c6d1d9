import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import request from 'supertest';
import { z } from 'zod';
import {
  accessTokenClaimsSchema,
  ApiRouter,
  createLogger,
  createMetricsRegistry,
  createServiceApp,
  normalizeRole,
} from '../src/index.js';

/*
 * WS-296: the role comes from the token claim; no claim is a standard user; admin exists. The kit's token
 * verification reads the claim with the domain rule (identity's normalizeRole): admin stays admin, a missing claim
 * or any other value is standard, so no unknown role reaches a route as something it could be mistaken for.
 */

const ISSUER = 'workspace-identity';
const AUDIENCE = 'workspace';
let privateKey: CryptoKey;
let jwk: JWK;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  privateKey = pair.privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
});

/** A token shaped like identity's, with exactly the claims given (so the role claim can be left out). */
const sign = (claims: Record<string, unknown>, typ = 'at+jwt') =>
  new SignJWT({ tid: 'acme', scp: ['notes.view'], ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ })
    .setSubject('user-1')
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(privateKey);

function app() {
  const api = new ApiRouter().route({
    method: 'get',
    path: '/whoami',
    summary: 'The caller as the kit read the token',
    responses: { 200: { description: 'Caller', schema: z.object({ role: z.string(), userId: z.string() }) } },
    handler: ({ ctx }) => Promise.resolve({ role: ctx.role, userId: ctx.userId }),
  });
  return createServiceApp({
    name: 'token-role-test',
    logger: createLogger({ name: 'test', level: 'silent' }),
    metrics: createMetricsRegistry('token_role_test'),
    auth: { keys: createLocalJWKSet({ keys: [jwk] }), issuer: ISSUER, audience: AUDIENCE },
    readiness: {},
    apis: [{ basePath: '/api', api }],
  });
}

const roleOf = async (claims: Record<string, unknown>) => {
  const res = await request(app())
    .get('/api/whoami')
    .set('authorization', `Bearer ${await sign(claims)}`);
  expect(res.status).toBe(200);
  return (res.body as { role: string }).role;
};

describe('the token type (RFC 9068, security review L8)', () => {
  it.each([['JWT'], ['at+JWT-not'], ['']])(
    'refuses a token signed by the right key whose typ is %p, not at+jwt (an ID token is not an access token)',
    async (typ) => {
      const res = await request(app())
        .get('/api/whoami')
        .set('authorization', `Bearer ${await sign({ role: 'admin' }, typ)}`);
      expect(res.status).toBe(401);
    },
  );

  it('accepts at+jwt in the media-type form too (application/at+jwt)', async () => {
    const res = await request(app())
      .get('/api/whoami')
      .set('authorization', `Bearer ${await sign({ role: 'admin' }, 'application/at+jwt')}`);
    expect(res.status).toBe(200);
  });
});

describe('the role claim in the kit’s token verification (WS-296)', () => {
  it('WS-296: a verified token without a role claim is a standard user', async () => {
    expect(await roleOf({})).toBe('standard');
  });

  it('WS-296: admin stays admin, standard stays standard', async () => {
    expect(await roleOf({ role: 'admin' })).toBe('admin');
    expect(await roleOf({ role: 'standard' })).toBe('standard');
  });

  it.each([['superadmin'], ['Admin'], ['ADMIN'], [' admin'], ['subcontractor'], ['']])(
    'WS-296: an unknown role claim %p is read as standard, as the domain rule says',
    async (claim) => {
      expect(await roleOf({ role: claim })).toBe('standard');
    },
  );

  it('WS-296: a role claim that is not a string is standard too, and the token is still accepted', async () => {
    expect(await roleOf({ role: ['admin'] })).toBe('standard');
    expect(await roleOf({ role: null })).toBe('standard');
    expect(await roleOf({ role: 1 })).toBe('standard');
  });

  it('WS-296: the claims schema and normalizeRole give the same answers as identity’s domain rule', () => {
    const base = { sub: 'u', tid: 't', scp: [] };
    expect(accessTokenClaimsSchema.parse(base).role).toBe('standard');
    expect(accessTokenClaimsSchema.parse({ ...base, role: 'admin' }).role).toBe('admin');
    expect(accessTokenClaimsSchema.parse({ ...base, role: 'owner' }).role).toBe('standard');
    for (const claim of [undefined, null, 'standard', 'owner', 'Admin', 42]) {
      expect(normalizeRole(claim)).toBe('standard');
    }
    expect(normalizeRole('admin')).toBe('admin');
  });
});
