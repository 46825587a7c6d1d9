import { migrationSchema, type Migration } from '@workspace/kit';

/**
 * E-mail content sealed at rest and kept only until the e-mail is final; records kept for a retention period
 * (ADR 0030, review M2).
 * - `emails.content_sealed`, `email_attachments.content_sealed`: the subject and bodies, and each attachment (name,
 *   type, bytes), sealed with NOTIFICATION_ENCRYPTION_KEYS. The clear columns stay (nullable) only for what an older
 *   version wrote: the content of final e-mails is dropped here, that of pending ones is sealed by the retention
 *   worker at start (sealing needs the key, which migrations do not have).
 * - `purge_expired_emails(days)`: the retention clean-up, across tenants. A SECURITY DEFINER function of the schema
 *   owner, so the runtime role gets no policy or setting that opens other tenants' rows: it can only call this,
 *   which deletes nothing but final e-mails older than `days` (at least 1). Two policies let the owner role, and
 *   no other, see and delete final e-mails; the owner can switch row-level security off on its tables anyway.
 *   EXECUTE stays with PUBLIC: only roles with USAGE on the schema (the runtime role) can reach the function.
 */
export const sealedContent: Migration = {
  name: '002_sealed_content',
  async up(knex) {
    const schema = await migrationSchema(knex);

    await knex.raw('ALTER TABLE emails ADD COLUMN content_sealed text');
    await knex.raw(
      'ALTER TABLE emails ALTER COLUMN subject DROP NOT NULL, ALTER COLUMN text_body DROP NOT NULL',
    );
    await knex.raw('ALTER TABLE email_attachments ADD COLUMN content_sealed text');
    await knex.raw(
      `ALTER TABLE email_attachments ALTER COLUMN filename DROP NOT NULL, ALTER COLUMN content_type DROP NOT NULL,
         ALTER COLUMN content DROP NOT NULL`,
    );

    // The content older versions kept of e-mails already final: dropped. The migration role is under the tables'
    // forced row-level security too; it is lifted for this transaction only (DDL locks the tables until commit).
    await knex.raw('ALTER TABLE emails NO FORCE ROW LEVEL SECURITY');
    await knex.raw('ALTER TABLE email_attachments NO FORCE ROW LEVEL SECURITY');
    await knex.raw(
      `UPDATE emails SET subject = NULL, text_body = NULL, html_body = NULL WHERE status IN ('sent', 'failed')`,
    );
    await knex.raw(
      `DELETE FROM email_attachments a USING emails e WHERE a.email_id = e.email_id AND e.status IN ('sent', 'failed')`,
    );
    await knex.raw('ALTER TABLE email_attachments FORCE ROW LEVEL SECURITY');
    await knex.raw('ALTER TABLE emails FORCE ROW LEVEL SECURITY');

    await knex.raw(
      `CREATE INDEX emails_final_updated_at ON emails (updated_at) WHERE status IN ('sent', 'failed')`,
    );
    for (const command of ['SELECT', 'DELETE']) {
      await knex.raw(`
        CREATE POLICY retention_${command.toLowerCase()} ON emails FOR ${command} TO CURRENT_USER
          USING (status IN ('sent', 'failed'))`);
    }
    await knex.raw(`
      CREATE FUNCTION purge_expired_emails(retention_days integer) RETURNS integer
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${schema}, pg_temp AS $$
      DECLARE
        deleted integer;
      BEGIN
        IF retention_days IS NULL OR retention_days < 1 THEN
          RAISE EXCEPTION 'retention_days must be at least 1, not %', retention_days;
        END IF;
        DELETE FROM ${schema}.emails
          WHERE status IN ('sent', 'failed') AND updated_at < now() - make_interval(days => retention_days);
        GET DIAGNOSTICS deleted = ROW_COUNT;
        RETURN deleted;
      END $$`);
  },
  async down(knex) {
    await knex.raw('DROP FUNCTION purge_expired_emails(integer)');
    await knex.raw('DROP POLICY retention_delete ON emails');
    await knex.raw('DROP POLICY retention_select ON emails');
    await knex.raw('DROP INDEX emails_final_updated_at');
    // Rows sealed or emptied since cannot be opened here (no key): they keep an empty content.
    await knex.raw('ALTER TABLE emails NO FORCE ROW LEVEL SECURITY');
    await knex.raw('ALTER TABLE email_attachments NO FORCE ROW LEVEL SECURITY');
    await knex.raw(`UPDATE emails SET subject = coalesce(subject, ''), text_body = coalesce(text_body, '')`);
    await knex.raw('DELETE FROM email_attachments WHERE content IS NULL');
    await knex.raw('ALTER TABLE email_attachments FORCE ROW LEVEL SECURITY');
    await knex.raw('ALTER TABLE emails FORCE ROW LEVEL SECURITY');
    await knex.raw(
      `ALTER TABLE email_attachments DROP COLUMN content_sealed, ALTER COLUMN filename SET NOT NULL,
         ALTER COLUMN content_type SET NOT NULL, ALTER COLUMN content SET NOT NULL`,
    );
    await knex.raw(
      'ALTER TABLE emails DROP COLUMN content_sealed, ALTER COLUMN subject SET NOT NULL, ALTER COLUMN text_body SET NOT NULL',
    );
  },
};
