// M5 (ADR 0033): migrations are their own step, as the schema owner; a serving process holds the runtime role only.
import { Writable } from 'node:stream';
import {
  ConfigError,
  createLogger,
  runMigrateCommand,
  startService,
  type StartedService,
} from '../src/index.js';
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
const ledgerSchema = { schema: LEDGER_SCHEMA, migrations: ledgerMigrations };

/** A serving process's settings: the runtime role only, as the charts' Deployments give it. */
const servingConfig = (extra: Record<string, string> = {}) => ledgerServingConfig(roles, extra);

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { logger: createLogger({ name: 'ledger', level: 'info' }, sink), lines };
}

beforeAll(async () => {
  database = await createTestDatabase('migrate_step');
  roles = await provisionLedgerSchema(database.adminUrl);
});

afterAll(async () => {
  await database.drop();
});

describe('a serving process without the migrate step', () => {
  it("refuses the schema owner's URL unless it migrates at start", async () => {
    const config = servingConfig({ DATABASE_MIGRATION_URL: roles.migrationUrl });
    const started = startService(ledgerService('ledger-refuses-owner'), config);
    await expect(started).rejects.toThrow(ConfigError);
    await expect(started).rejects.toThrow(/DATABASE_MIGRATION_URL: a serving process must not hold/);
  });

  it('reports not ready against an unmigrated schema, says to run the migrate step, and serves no route', async () => {
    const { logger, lines } = capturedLogger();
    const service = await startService(ledgerService('ledger-behind'), servingConfig(), { logger });
    try {
      const base = `http://127.0.0.1:${service.port}`;
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        status: 'not ready',
        checks: { database: 'up', schema: 'down' },
      });
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/api/ledgers/main/entries`)).status).toBe(404);
      const behind = lines.find((line) => line.level === 'error');
      expect(behind?.msg).toMatch(/^schema ledger is behind this release \(3 migration\(s\) not applied\)/);
      expect(behind?.msg).toContain('node dist/main.js migrate');
      expect(behind?.pending).toEqual(['000_kit_outbox_inbox', '001_kit_inbox_received_at', '001_ledger']);
    } finally {
      await service.shutdown();
    }
  });
});

describe('the migrate step', () => {
  it('cannot run as the runtime role (it may not change the schema)', async () => {
    await expect(
      runMigrateCommand(
        { name: 'ledger', schema: ledgerSchema },
        { DATABASE_MIGRATION_URL: roles.databaseUrl, LOG_LEVEL: 'silent' },
      ),
    ).rejects.toThrow(/permission denied/);
  });

  it("needs the schema owner's URL", async () => {
    await expect(
      runMigrateCommand({ name: 'ledger', schema: ledgerSchema }, { LOG_LEVEL: 'silent' }),
    ).rejects.toThrow(/DATABASE_MIGRATION_URL: the migrate step needs the schema owner's URL/);
  });

  it("applies the migrations with the owner's URL, then finds the schema current", async () => {
    const env = { DATABASE_MIGRATION_URL: roles.migrationUrl, LOG_LEVEL: 'silent' };
    expect(await runMigrateCommand({ name: 'ledger', schema: ledgerSchema }, env)).toEqual([
      '000_kit_outbox_inbox',
      '001_kit_inbox_received_at',
      '001_ledger',
    ]);
    expect(await runMigrateCommand({ name: 'ledger', schema: ledgerSchema }, env)).toEqual([]);
  });

  it('then lets a process with the runtime role only serve', async () => {
    const issuer = await createTestIssuer();
    let service: StartedService<ReturnType<typeof servingConfig>> | undefined;
    try {
      service = await startService(ledgerService('ledger-serves'), servingConfig(), { keys: issuer.keys });
      const base = `http://127.0.0.1:${service.port}`;
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      const token = await issuer.token({ tenantId: 'tenant-a', scopes: ['ledger.write', 'ledger.read'] });
      const written = await fetch(`${base}/api/ledgers/main/entries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ amountP: 250, note: 'first' }),
      });
      expect(written.status).toBe(201);
      // The runtime role cannot switch row-level security off: only the owner could, and it is not here.
      await expect(
        service.deps.db.raw('ALTER TABLE ledger_entries NO FORCE ROW LEVEL SECURITY'),
      ).rejects.toThrow(/must be owner of table ledger_entries/);
    } finally {
      await service?.shutdown();
    }
  });
});
