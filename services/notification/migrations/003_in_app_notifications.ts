import { enableTenantIsolation, type Migration } from '@workspace/kit';

/** The channel the trigger notifies (workers/notification-changes.ts listens). */
const NOTIFICATION_CHANGES_CHANNEL = 'notification_changes';

/**
 * In-app notifications (docs/notifications.md, ADR 0052): one row per person to tell, in their tenant.
 * - `source_key`: what made it (an event id, or a key naming the thing, e.g. a share and the user), unique per tenant
 *   and person, so a repeated event, or a second event about the same thing, creates nothing more.
 * - `notifications_changed`: after every insert or update, one NOTIFY per tenant and person the statement touched
 *   ({tenantId, targetUid}; ids only), delivered on commit: the bell's stream (SSE) fans these out.
 */
export const inAppNotifications: Migration = {
  name: '003_in_app_notifications',
  async up(knex) {
    await knex.schema.createTable('notifications', (table) => {
      table.uuid('notification_id').primary();
      table.text('tenant_id').notNullable();
      table.text('target_uid').notNullable();
      table.text('type').notNullable();
      table.text('subject').notNullable();
      table.text('link').notNullable();
      /** Who caused it (a colleague's uid), when a person did; what it is about: its kind, id and name. */
      table.text('from_uid');
      table.text('subject_type');
      table.text('subject_id');
      table.text('subject_name');
      /** A note the sender added (a share's message), when there is one. */
      table.text('message');
      table.text('source_key').notNullable();
      table.timestamp('read_at', { useTz: true });
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await knex.raw(
      'CREATE UNIQUE INDEX notifications_source ON notifications (tenant_id, target_uid, source_key)',
    );
    await knex.raw(
      'CREATE INDEX notifications_inbox ON notifications (tenant_id, target_uid, created_at DESC, notification_id DESC)',
    );
    await knex.raw(
      'CREATE INDEX notifications_unread ON notifications (tenant_id, target_uid) WHERE read_at IS NULL',
    );
    await enableTenantIsolation(knex, 'notifications');

    await knex.raw(`
      CREATE FUNCTION notifications_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        changed record;
      BEGIN
        FOR changed IN SELECT DISTINCT tenant_id, target_uid FROM new_rows LOOP
          PERFORM pg_notify('${NOTIFICATION_CHANGES_CHANNEL}', json_build_object(
            'tenantId', changed.tenant_id, 'targetUid', changed.target_uid, 'action', lower(TG_OP))::text);
        END LOOP;
        RETURN NULL;
      END $$`);
    await knex.raw(`CREATE TRIGGER notifications_changed_insert AFTER INSERT ON notifications
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications_changed()`);
    await knex.raw(`CREATE TRIGGER notifications_changed_update AFTER UPDATE ON notifications
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications_changed()`);
  },
  async down(knex) {
    await knex.schema.dropTable('notifications');
    await knex.raw('DROP FUNCTION notifications_changed()');
  },
};
