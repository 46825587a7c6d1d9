// L4 (ADR 0032): with MANAGEMENT_PORT a service's operational endpoints answer on that port only, also while its
// schema is behind the release (the probes ask there), and its API stays on PORT.
import { runMigrateCommand, startService, type StartedService } from '../src/index.js';
import { createTestDatabase, createTestIssuer, type TestDatabase } from '../src/testing/index.js';
import {
  LEDGER_SCHEMA,
  ledgerMigrations,
  ledgerService,
  ledgerServingConfig,
  provisionLedgerSchema,
} from './fixtures/ledger-service.js';

let database: TestDatabase;
let roles: { databaseUrl: string; migrationUrl: string };

/** A serving process as the charts run it: the runtime role, and a management port (0: any free one). */
const servingConfig = () => ledgerServingConfig(roles, { MANAGEMENT_PORT: '0' });

type Service = StartedService<ReturnType<typeof servingConfig>>;
const ports = (service: Service) => ({
  api: `http://127.0.0.1:${service.port}`,
  management: `http://127.0.0.1:${String(service.managementPort)}`,
});

beforeAll(async () => {
  database = await createTestDatabase('management_port');
  roles = await provisionLedgerSchema(database.adminUrl);
});

afterAll(async () => {
  await database.drop();
});

describe('a service with MANAGEMENT_PORT', () => {
  it('answers the probes on the management port while its schema is behind: healthy, not ready', async () => {
    const service = await startService(ledgerService('ledger-behind-managed'), servingConfig());
    try {
      const { api, management } = ports(service);
      expect((await fetch(`${management}/healthz`)).status).toBe(200);
      const ready = await fetch(`${management}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ checks: { schema: 'down' } });
      expect((await fetch(`${api}/healthz`)).status).toBe(404);
    } finally {
      await service.shutdown();
    }
  });

  it('serves the API on PORT and /metrics, /openapi.json and the probes on the management port only', async () => {
    await runMigrateCommand(
      { name: 'ledger', schema: { schema: LEDGER_SCHEMA, migrations: ledgerMigrations } },
      { DATABASE_MIGRATION_URL: roles.migrationUrl, LOG_LEVEL: 'silent' },
    );
    const issuer = await createTestIssuer();
    const service = await startService(ledgerService('ledger-managed'), servingConfig(), {
      keys: issuer.keys,
    });
    try {
      const { api, management } = ports(service);
      for (const path of ['/metrics', '/openapi.json', '/readyz', '/healthz']) {
        expect([path, (await fetch(`${api}${path}`)).status]).toEqual([path, 404]);
        expect([path, (await fetch(`${management}${path}`)).status]).toEqual([path, 200]);
      }
      const token = await issuer.token({ tenantId: 'tenant-a', scopes: ['ledger.write'] });
      const written = await fetch(`${api}/api/ledgers/main/entries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ amountP: 250, note: 'first' }),
      });
      expect(written.status).toBe(201);
      expect((await fetch(`${management}/api/ledgers/main/entries`)).status).toBe(404);
    } finally {
      await service.shutdown();
    }
  });
});
