import pg from 'pg';
import { PgListener } from '../src/db/listener.js';
import { createTestDatabase, eventually, type TestDatabase } from '../src/testing/index.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase('listener');
});

afterAll(async () => {
  await database.drop();
});

async function query(text: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: database.adminUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/** Sessions of the test database that are listening (a LISTEN connection left open shows here). */
const listening = async (channel: string) =>
  (
    await query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = $1`,
      [`LISTEN ${channel}`],
    )
  )[0]?.n;

describe('PgListener', () => {
  it('hears pg_notify on its channel after connecting, and closes its connection on stop', async () => {
    const heard: string[] = [];
    let connected = 0;
    const listener = new PgListener({
      databaseUrl: database.adminUrl,
      channel: 'listener_test',
      onNotify: (payload) => heard.push(payload),
      onConnect: () => {
        connected += 1;
      },
    });
    listener.start();
    await eventually(() => Promise.resolve(connected === 1 ? true : undefined));
    await query(`SELECT pg_notify('listener_test', 'hello')`);
    await eventually(() => Promise.resolve(heard.includes('hello') ? true : undefined));
    expect(await listening('listener_test')).toBe(1);
    await listener.stop();
    expect(await listening('listener_test')).toBe(0);
  });

  it('stops while it is still connecting, and leaves no connection behind', async () => {
    let connected = 0;
    const listener = new PgListener({
      databaseUrl: database.adminUrl,
      channel: 'listener_stop_early',
      onNotify: () => undefined,
      onConnect: () => {
        connected += 1;
      },
    });
    listener.start();
    // At once: the connection is still being made.
    await listener.stop();
    expect(connected).toBe(0);
    expect(await listening('listener_stop_early')).toBe(0);
  });
});
