import { enableTenantIsolation, type Migration, migrationSchema } from '@workspace/kit';

/** The tables whose rows decide who may see and read what: drives, their members, libraries (ACLs, policies). */
const ACCESS_TABLES = ['drives', 'drive_members', 'libraries'] as const;

/**
 * The tenant's access version (ADR 0050): one number per tenant, renewed (from a sequence) in the same transaction as
 * every insert, update or delete of `drives`, `drive_members` or `libraries`, by any writer (a route, a consumer, a
 * migration, an operator's SQL). The drive's access cache (commands/access-cache.ts) keeps a tenant's drives, members
 * and libraries labelled with the version it read first, and reads the version again on every use: a changed version
 * reloads them, so a removed member or a narrowed library ACL is seen by the next request on every replica at once.
 * Others see the new version when the writer's transaction commits, never before.
 */
export const accessVersions: Migration = {
  name: '008_access_versions',
  async up(knex) {
    const schema = await migrationSchema(knex);
    await knex.schema.createTable('access_versions', (table) => {
      table.text('tenant_id').primary();
      table.bigInteger('version').notNullable();
    });
    // Versions come from a sequence, never reused: a change rolled back never leaves its number to a later one (a
    // transaction that wrote and then read its own uncommitted access rows may have cached them under that number).
    await knex.raw('CREATE SEQUENCE access_version_seq');
    await enableTenantIsolation(knex, 'access_versions');
    await knex.raw(`
      CREATE FUNCTION access_version_bump() RETURNS trigger LANGUAGE plpgsql SET search_path = ${schema}, pg_temp AS $$
      DECLARE
        changed text[];
      BEGIN
        IF TG_OP = 'INSERT' THEN
          SELECT array_agg(DISTINCT tenant_id ORDER BY tenant_id) INTO changed FROM changed_new;
        ELSIF TG_OP = 'UPDATE' THEN
          SELECT array_agg(tenant_id ORDER BY tenant_id) INTO changed
            FROM (SELECT tenant_id FROM changed_new UNION SELECT tenant_id FROM changed_old) touched;
        ELSE
          SELECT array_agg(DISTINCT tenant_id ORDER BY tenant_id) INTO changed FROM changed_old;
        END IF;
        INSERT INTO ${schema}.access_versions (tenant_id, version)
          SELECT tenant_id, nextval('${schema}.access_version_seq') FROM unnest(changed) AS tenant_id
          ON CONFLICT (tenant_id) DO UPDATE SET version = excluded.version;
        RETURN NULL;
      END $$`);
    for (const table of ACCESS_TABLES) {
      await knex.raw(`CREATE TRIGGER ${table}_access_insert AFTER INSERT ON ${table}
        REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION access_version_bump()`);
      await knex.raw(`CREATE TRIGGER ${table}_access_update AFTER UPDATE ON ${table}
        REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new
        FOR EACH STATEMENT EXECUTE FUNCTION access_version_bump()`);
      await knex.raw(`CREATE TRIGGER ${table}_access_delete AFTER DELETE ON ${table}
        REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION access_version_bump()`);
    }
  },
  async down(knex) {
    for (const table of ACCESS_TABLES) {
      for (const op of ['insert', 'update', 'delete'])
        await knex.raw(`DROP TRIGGER IF EXISTS ${table}_access_${op} ON ${table}`);
    }
    await knex.raw('DROP FUNCTION IF EXISTS access_version_bump()');
    await knex.schema.dropTableIfExists('access_versions');
    await knex.raw('DROP SEQUENCE IF EXISTS access_version_seq');
  },
};
