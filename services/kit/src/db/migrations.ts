import type { Knex } from 'knex';
import { assertIdentifier } from './database.js';

export interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/**
 * The schema a migration runs in (the service's own: migrations run with it first on the search path), checked to
 * be a plain identifier, for SQL text that must name it (a function's search_path, a trigger's qualified tables).
 */
export async function migrationSchema(knex: Knex): Promise<string> {
  const { rows } = await knex.raw<{ rows: { schema: string | null }[] }>('SELECT current_schema() AS schema');
  return assertIdentifier(rows[0]?.schema ?? '');
}

/** The kit's own tables, first in every service's schema: the transactional outbox and the consumer inbox. */
export const kitMigrations: Migration[] = [
  {
    name: '000_kit_outbox_inbox',
    async up(knex) {
      await knex.schema.createTable('outbox', (table) => {
        table.bigIncrements('id');
        table.uuid('event_id').notNullable().unique();
        table.text('topic').notNullable();
        table.text('key').notNullable();
        table.text('type').notNullable();
        table.text('source').notNullable();
        table.text('subject');
        table.text('tenant_id').notNullable();
        table.timestamp('occurred_at', { useTz: true }).notNullable();
        table.jsonb('payload').notNullable();
        table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        table.timestamp('published_at', { useTz: true });
        table.integer('attempts').notNullable().defaultTo(0);
        table.text('last_error');
      });
      await knex.raw('CREATE INDEX outbox_unpublished ON outbox (id) WHERE published_at IS NULL');
      await knex.raw(
        'CREATE INDEX outbox_published_at ON outbox (published_at) WHERE published_at IS NOT NULL',
      );
      // Wakes the relay at commit time (NOTIFY is delivered only when the writing transaction commits).
      await knex.raw(`
        CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_notify(TG_TABLE_SCHEMA || '_outbox', ''); RETURN NULL; END $$`);
      await knex.raw(
        'CREATE TRIGGER outbox_notify AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify()',
      );
      await knex.schema.createTable('inbox', (table) => {
        table.text('consumer_group').notNullable();
        table.uuid('event_id').notNullable();
        table.text('type').notNullable();
        table.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        table.primary(['consumer_group', 'event_id']);
      });
    },
    async down(knex) {
      await knex.schema.dropTable('inbox');
      await knex.schema.dropTable('outbox');
      await knex.raw('DROP FUNCTION outbox_notify()');
    },
  },
  {
    name: '001_kit_inbox_received_at',
    async up(knex) {
      // The retention clean-up deletes inbox ids by age.
      await knex.raw('CREATE INDEX inbox_received_at ON inbox (received_at)');
    },
    async down(knex) {
      await knex.raw('DROP INDEX inbox_received_at');
    },
  },
];

/** The migration names knex records as applied in `schema` (empty when it never migrated). */
async function appliedMigrationNames(db: Knex, schema: string): Promise<Set<string>> {
  const table = `${assertIdentifier(schema)}.knex_migrations`;
  const exists = await db.raw<{ rows: { found: string | null }[] }>('SELECT to_regclass(?)::text AS found', [
    table,
  ]);
  if (!exists.rows[0]?.found) return new Set();
  const rows = await db.withSchema(schema).table('knex_migrations').select<{ name: string }[]>('name');
  return new Set(rows.map((row) => row.name));
}

/**
 * The kit's and the service's migrations not applied in `schema` yet, in order. Reads only, so the runtime role
 * can ask (it may read knex's table, not change it).
 */
export async function pendingMigrations(
  db: Knex,
  schema: string,
  migrations: Migration[],
): Promise<string[]> {
  const applied = await appliedMigrationNames(db, schema);
  return [...kitMigrations, ...migrations]
    .map((migration) => migration.name)
    .filter((name) => !applied.has(name));
}

/** Applies the kit's migrations, then the service's, in order, inside the service's schema. */
export async function migrateLatest(db: Knex, schema: string, migrations: Migration[]): Promise<string[]> {
  const all = [...kitMigrations, ...migrations];
  const byName = new Map(all.map((migration) => [migration.name, migration]));
  const [, applied] = (await db.migrate.latest({
    schemaName: assertIdentifier(schema),
    tableName: 'knex_migrations',
    migrationSource: {
      getMigrations: () => Promise.resolve(all.map((migration) => migration.name)),
      getMigrationName: (name: string) => name,
      getMigration: (name: string) => {
        const migration = byName.get(name);
        if (!migration) throw new Error(`Unknown migration ${name}`);
        return Promise.resolve(migration);
      },
    },
  })) as [number, string[]];
  return applied;
}
