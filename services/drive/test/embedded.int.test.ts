// `make up` starts the drive by its `./embedded` entry (deploy/local/embedded.ts finds it; no list names it). This
// starts that entry as the runner does, against the shared PostgreSQL and MinIO with the MinIO settings up.sh
// exports, and checks it serves, made its region's bucket and accepts identity's tokens.
import { randomBytes } from 'node:crypto';
import { createLogger, MemoryBus, provisionServiceSchema } from '@workspace/kit';
import { embeddedServiceEnv, type EmbeddedContext, type EmbeddedRunning } from '@workspace/kit/embedding';
import { demoSeed, signIn, startIdentityHarness, type IdentityHarness } from '@workspace/identity/testing';
import { Client } from 'minio';
import { embedded } from '../src/embedded.js';
import { testObjectStoreEnv } from './support.js';

let identity: IdentityHarness;
let running: EmbeddedRunning | undefined;
const bus = new MemoryBus(createLogger({ name: 'bus', level: 'silent' }));
const bucket = `t-drive-embedded-${randomBytes(4).toString('hex')}`;
const store = testObjectStoreEnv();
const secretsAsked: string[] = [];

beforeAll(async () => {
  identity = await startIdentityHarness();
});

afterAll(async () => {
  await running?.shutdown('test');
  await bus.close();
  await identity.stop();
});

/** The runner's context for the drive, with the environment `make up` gives it (deploy/local/up.sh). */
function context(): EmbeddedContext {
  const env = {
    LISTEN_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    MINIO_ENDPOINT: store.OBJECT_STORE_URL,
    MINIO_ROOT_USER: store.OBJECT_STORE_ACCESS_KEY,
    MINIO_ROOT_PASSWORD: store.OBJECT_STORE_SECRET_KEY,
    OBJECT_STORE_PUBLIC_URL: store.OBJECT_STORE_URL,
    OBJECT_STORE_BUCKET: bucket,
  };
  return {
    env,
    bus,
    logger: createLogger({ name: 'embedded', level: 'silent' }),
    publicUrl: 'http://localhost:8080',
    urlOf: (name) => {
      if (name === 'identity') return identity.baseUrl;
      // cis is asked only when a CIS document is to be filed: none is here.
      if (name === 'cis') return 'http://127.0.0.1:9';
      throw new Error(`the drive asked for ${name}`);
    },
    secret: (name) => {
      secretsAsked.push(name);
      return randomBytes(32).toString('hex');
    },
    serviceEnv: async (options) =>
      embeddedServiceEnv({
        env,
        port: embedded.port,
        roles: await provisionServiceSchema(identity.database.adminUrl, {
          ...options,
          password: 'drive-embedded',
          ownerPassword: 'drive-embedded-owner',
        }),
        identityUrl: identity.baseUrl,
      }),
    oidc: { issuer: 'http://localhost:8090', clientId: 'workspace', clientSecret: 'x' },
    demoTenant: demoSeed,
    demoTenantId: 'demo',
    webDist: '/nonexistent',
  };
}

describe("the drive's embedded entry (make up)", () => {
  it("starts on its port with up.sh's MinIO settings, makes its region's bucket, and serves identity's users", async () => {
    expect(embedded).toMatchObject({ name: 'drive', port: 8084, after: ['identity', 'cis'] });
    running = await embedded.start(context());
    const base = `http://127.0.0.1:${embedded.port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);

    const minio = new Client({
      endPoint: new URL(store.OBJECT_STORE_URL).hostname,
      port: Number(new URL(store.OBJECT_STORE_URL).port),
      useSSL: false,
      accessKey: store.OBJECT_STORE_ACCESS_KEY,
      secretKey: store.OBJECT_STORE_SECRET_KEY,
      region: 'us-east-1',
      pathStyle: true,
    });
    expect(await minio.bucketExists(bucket)).toBe(true);

    const signedIn = await signIn(identity, 'demo', 'admin@demo.test', demoSeed.password);
    const abilities = await fetch(`${base}/v1/me/abilities`, {
      headers: { authorization: `Bearer ${String(signedIn.body.accessToken)}` },
    });
    expect(abilities.status).toBe(200);
    // The CIS documents' token is the local secret cis's embedded entry reads too.
    expect(secretsAsked).toContain('cisDocumentsToken');
  });
});
