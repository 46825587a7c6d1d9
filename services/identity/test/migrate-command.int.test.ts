// M5 (ADR 0033): `node dist/main.js migrate` is identity's migrate step, run by the chart's migrate Job with the
// schema owner's URL only (none of the serving settings).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createDatabase, pendingMigrations, provisionServiceSchema } from '@workspace/kit';
import { createTestDatabase, type TestDatabase } from '@workspace/kit/testing';
import { identityMigrations } from '../migrations/index.js';
import { IDENTITY_SCHEMA } from '../src/service.js';

const run = promisify(execFile);
const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

let database: TestDatabase;
let roles: { databaseUrl: string; migrationUrl: string };

beforeAll(async () => {
  database = await createTestDatabase('identity_migrate');
  roles = await provisionServiceSchema(database.adminUrl, {
    schema: IDENTITY_SCHEMA,
    role: 'svc_identity',
    password: 'identity-test',
    ownerPassword: 'identity-owner-test',
  });
});

afterAll(async () => {
  await database.drop();
});

it("applies identity's migrations with the schema owner's URL and nothing else", async () => {
  const runtime = createDatabase({ url: roles.databaseUrl, schema: IDENTITY_SCHEMA, poolMax: 1 });
  try {
    expect(await pendingMigrations(runtime, IDENTITY_SCHEMA, identityMigrations)).toContain('001_identity');
    const { stdout } = await run('node', ['--conditions=development', '--import', 'tsx', main, 'migrate'], {
      env: { PATH: process.env.PATH, DATABASE_MIGRATION_URL: roles.migrationUrl, LOG_LEVEL: 'info' },
      timeout: 120_000,
    });
    const applied = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg: string; applied?: string[] })
      .find((line) => line.msg === 'migrations applied');
    expect(applied?.applied).toEqual(expect.arrayContaining(identityMigrations.map((m) => m.name)));
    expect(await pendingMigrations(runtime, IDENTITY_SCHEMA, identityMigrations)).toEqual([]);
  } finally {
    await runtime.destroy();
  }
});
