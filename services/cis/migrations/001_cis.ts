import { enableTenantIsolation, type Migration } from '@workspace/kit';

/**
 * The CIS schema (cis.md section 3). Every table is tenant-scoped under row-level security; amounts are integer
 * pence (bigint, the *_p columns); UTR and NINO are held only encrypted (`*_enc`, the kit's FieldCipher) beside
 * their masked copies.
 */
export const cisSchema: Migration = {
  name: '001_cis',
  async up(knex) {
    await knex.schema.createTable('settings', (table) => {
      table.text('tenant_id').primary();
      table.boolean('active').notNullable().defaultTo(false);
      table.text('company_name').notNullable().defaultTo('');
      table.text('employer_ref').notNullable().defaultTo('');
      table.text('accounts_office_ref').notNullable().defaultTo('');
      table.text('utr_enc');
      table.text('utr_masked').notNullable().defaultTo('');
      table.text('vat_scheme').notNullable().defaultTo('standard');
      table.boolean('email_statements').notNullable().defaultTo(true);
      table.integer('warning_days').notNullable().defaultTo(3);
      table.integer('statement_deadline_days').notNullable().defaultTo(14);
      table.text('email_from').notNullable().defaultTo('');
      table.text('email_reply_to').notNullable().defaultTo('');
      table.text('statement_footer').notNullable().defaultTo('');
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.text('updated_by');
    });
    await knex.raw(
      `ALTER TABLE settings ADD CONSTRAINT settings_vat_scheme CHECK (vat_scheme IN ('standard', 'reduced', 'zero', 'flat'))`,
    );
    await enableTenantIsolation(knex, 'settings');

    await knex.schema.createTable('subcontractors', (table) => {
      table.uuid('id').primary();
      table.text('tenant_id').notNullable();
      table.text('type').notNullable();
      table.text('name').notNullable();
      table.text('utr_enc');
      table.text('utr_masked').notNullable().defaultTo('');
      table.text('nino_enc');
      table.text('nino_masked').notNullable().defaultTo('');
      table.text('company_number').notNullable().defaultTo('');
      table.text('vat_number').notNullable().defaultTo('');
      table.timestamp('vat_checked_at', { useTz: true });
      table.text('email').notNullable().defaultTo('');
      table.text('phone').notNullable().defaultTo('');
      table.text('mobile').notNullable().defaultTo('');
      table.jsonb('registered_address').notNullable().defaultTo('{}');
      table.jsonb('trading_address').notNullable().defaultTo('{}');
      table.boolean('trading_address_same_as_registered').notNullable().defaultTo(true);
      table.boolean('gdpr_consent').notNullable().defaultTo(false);
      table.timestamp('gdpr_consent_date', { useTz: true });
      table.boolean('marketing_consent').notNullable().defaultTo(false);
      table.boolean('portal_access').notNullable().defaultTo(false);
      table.boolean('active').notNullable().defaultTo(true);
      table.boolean('archived').notNullable().defaultTo(false);
      table.text('verification_status').notNullable().defaultTo('standard');
      table.integer('verification_rate').notNullable().defaultTo(20);
      table.text('verification_method').notNullable().defaultTo('online');
      table.text('verification_reference').notNullable().defaultTo('');
      table.text('verification_notes').notNullable().defaultTo('');
      table.date('verified_date');
      table.text('verified_by');
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.text('created_by').notNullable();
      table.text('updated_by').notNullable();
      table.timestamp('deleted_at', { useTz: true });
      table.text('deleted_by');
    });
    await knex.raw(
      `ALTER TABLE subcontractors ADD CONSTRAINT subcontractors_type CHECK (type IN ('individual', 'company', 'partnership'))`,
    );
    await knex.raw(
      `ALTER TABLE subcontractors ADD CONSTRAINT subcontractors_verification CHECK (
        (verification_status, verification_rate) IN (('gross', 0), ('standard', 20), ('higher', 30)))`,
    );
    await knex.raw(
      'CREATE INDEX subcontractors_by_name ON subcontractors (tenant_id, lower(name)) WHERE deleted_at IS NULL',
    );
    await enableTenantIsolation(knex, 'subcontractors');

    await knex.schema.createTable('invoices', (table) => {
      table.uuid('id').primary();
      table.text('tenant_id').notNullable();
      table.text('invoice_number').notNullable();
      table.uuid('subcontractor_id').notNullable().references('id').inTable('subcontractors');
      table.text('subcontractor_name').notNullable();
      table.text('status').notNullable().defaultTo('draft');
      table.text('source').notNullable().defaultTo('staff');
      table.date('invoice_date').notNullable();
      table.date('received_date');
      table.date('payment_date');
      table.text('tax_month');
      table.text('description').notNullable().defaultTo('');
      table.integer('vat_rate').notNullable().defaultTo(20);
      table.boolean('reverse_charge').notNullable().defaultTo(false);
      table.text('materials_justification').notNullable().defaultTo('');
      table.bigInteger('gross_p').notNullable();
      table.bigInteger('materials_p').notNullable();
      table.decimal('materials_percentage', 5, 2).notNullable();
      table.bigInteger('labour_p').notNullable();
      table.bigInteger('cis_deduction_p').notNullable();
      table.bigInteger('vat_base_p').notNullable();
      table.bigInteger('vat_amount_p').notNullable();
      table.bigInteger('gross_total_p').notNullable();
      table.bigInteger('net_payment_p').notNullable();
      table.integer('cis_rate').notNullable();
      table.text('verification_reference').notNullable().defaultTo('');
      table.text('utr_masked').notNullable().defaultTo('');
      table.text('nino_masked').notNullable().defaultTo('');
      table.boolean('statement_required').notNullable().defaultTo(false);
      table.timestamp('statement_requested_at', { useTz: true });
      table.text('statement_requested_by');
      table.timestamp('statement_issued_at', { useTz: true });
      table.text('statement_issued_method');
      table.text('statement_id');
      table.timestamp('approved_at', { useTz: true });
      table.text('approved_by');
      table.timestamp('locked_at', { useTz: true });
      table.timestamp('paid_at', { useTz: true });
      table.text('paid_by');
      table.timestamp('cancelled_at', { useTz: true });
      table.text('cancelled_by');
      table.boolean('archived').notNullable().defaultTo(false);
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.text('created_by').notNullable();
      table.text('updated_by').notNullable();
      table.timestamp('deleted_at', { useTz: true });
      table.text('deleted_by');
    });
    await knex.raw(
      `ALTER TABLE invoices ADD CONSTRAINT invoices_status CHECK (status IN ('draft', 'portal_draft', 'approved', 'paid', 'cancelled'))`,
    );
    await knex.raw(
      `ALTER TABLE invoices ADD CONSTRAINT invoices_amounts CHECK (gross_p >= 0 AND materials_p >= 0 AND materials_p <= gross_p AND cis_deduction_p >= 0 AND net_payment_p >= 0)`,
    );
    await knex.raw('ALTER TABLE invoices ADD CONSTRAINT invoices_cis_rate CHECK (cis_rate IN (0, 20, 30))');
    await knex.raw('ALTER TABLE invoices ADD CONSTRAINT invoices_vat_rate CHECK (vat_rate IN (0, 5, 20))');
    await knex.raw(
      'CREATE INDEX invoices_by_date ON invoices (tenant_id, invoice_date DESC, created_at DESC, id) WHERE deleted_at IS NULL',
    );
    await knex.raw(
      'CREATE INDEX invoices_by_tax_month ON invoices (tenant_id, tax_month, subcontractor_id) WHERE deleted_at IS NULL',
    );
    await knex.raw(
      'CREATE INDEX invoices_by_subcontractor ON invoices (tenant_id, subcontractor_id) WHERE deleted_at IS NULL',
    );
    await knex.raw(
      'CREATE INDEX invoices_by_status ON invoices (tenant_id, status, invoice_date DESC) WHERE deleted_at IS NULL',
    );
    await knex.raw(
      `CREATE UNIQUE INDEX invoices_number_per_subcontractor ON invoices (tenant_id, subcontractor_id, lower(invoice_number))
       WHERE deleted_at IS NULL AND status <> 'cancelled'`,
    );
    await enableTenantIsolation(knex, 'invoices');

    await knex.schema.createTable('statements', (table) => {
      table.text('tenant_id').notNullable();
      /** The statement key: the first 16 characters of sha256(subcontractor id, tax month). */
      table.text('id').notNullable();
      table.uuid('subcontractor_id').notNullable().references('id').inTable('subcontractors');
      table.text('subcontractor_name').notNullable();
      table.text('tax_month').notNullable();
      table.specificType('invoice_ids', 'uuid[]').notNullable();
      table.integer('invoice_count').notNullable();
      table.bigInteger('gross_p').notNullable();
      table.bigInteger('materials_p').notNullable();
      table.bigInteger('labour_p').notNullable();
      table.bigInteger('cis_deduction_p').notNullable();
      table.integer('cis_rate').notNullable();
      table.text('verification_reference').notNullable().defaultTo('');
      table.text('status').notNullable().defaultTo('generated');
      table.timestamp('generated_at', { useTz: true }).notNullable();
      table.text('generated_by').notNullable();
      table.timestamp('issued_at', { useTz: true });
      table.text('issued_method');
      table.text('issued_by');
      table.text('email_id');
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.text('updated_by');
      table.primary(['tenant_id', 'id']);
      table.unique(['tenant_id', 'subcontractor_id', 'tax_month']);
    });
    await knex.raw(
      `ALTER TABLE statements ADD CONSTRAINT statements_status CHECK (status IN ('generated', 'issued'))`,
    );
    await knex.raw(
      `ALTER TABLE statements ADD CONSTRAINT statements_method CHECK (issued_method IS NULL OR issued_method IN ('email', 'portal', 'print'))`,
    );
    await enableTenantIsolation(knex, 'statements');

    await knex.schema.createTable('returns', (table) => {
      table.text('tenant_id').notNullable();
      table.text('id').notNullable();
      table.text('tax_month').notNullable();
      table.text('status').notNullable();
      table.boolean('locked').notNullable().defaultTo(false);
      table.timestamp('locked_at', { useTz: true });
      table.jsonb('period').notNullable();
      table.jsonb('deadlines').notNullable();
      table.jsonb('totals').notNullable();
      table.jsonb('lines').notNullable();
      table.jsonb('issues').notNullable().defaultTo('[]');
      table.text('submission_ref');
      table.timestamp('submitted_at', { useTz: true });
      table.text('submitted_by');
      table.text('amendment_of');
      table.text('compiled_by');
      table.text('cis300_xml');
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.text('updated_by');
      table.primary(['tenant_id', 'id']);
    });
    await knex.raw(
      `ALTER TABLE returns ADD CONSTRAINT returns_status CHECK (status IN ('draft', 'ready', 'submitted', 'amended', 'nil'))`,
    );
    await knex.raw('CREATE INDEX returns_by_month ON returns (tenant_id, tax_month DESC, created_at DESC)');
    await enableTenantIsolation(knex, 'returns');

    await knex.schema.createTable('jobs', (table) => {
      table.uuid('id').primary();
      table.text('tenant_id').notNullable();
      table.text('type').notNullable();
      table.text('status').notNullable().defaultTo('pending');
      table.integer('progress').notNullable().defaultTo(0);
      table.jsonb('payload').notNullable().defaultTo('{}');
      table.jsonb('result');
      table.text('error');
      table.integer('attempts').notNullable().defaultTo(0);
      table.text('performed_by').notNullable();
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await knex.raw(
      `ALTER TABLE jobs ADD CONSTRAINT jobs_status CHECK (status IN ('pending', 'running', 'completed', 'failed'))`,
    );
    await knex.raw(`CREATE INDEX jobs_pending ON jobs (created_at) WHERE status IN ('pending', 'running')`);
    await enableTenantIsolation(knex, 'jobs');
    // The workers' queue: ids only, no tenant data, so a worker can find pending work across tenants (the jobs
    // table itself is tenant-isolated) and claim it with FOR UPDATE SKIP LOCKED.
    await knex.schema.createTable('job_queue', (table) => {
      table.uuid('job_id').primary();
      table.text('tenant_id').notNullable();
      table.timestamp('run_after', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await knex.raw('CREATE INDEX job_queue_due ON job_queue (run_after)');

    await knex.schema.createTable('activity', (table) => {
      table.bigIncrements('id').primary();
      table.text('tenant_id').notNullable();
      table.text('action').notNullable();
      table.text('target_type').notNullable();
      table.text('target_id').notNullable().defaultTo('');
      table.text('summary').notNullable();
      table.jsonb('details').notNullable().defaultTo('{}');
      table.text('performed_by').notNullable();
      table.timestamp('performed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await knex.raw('CREATE INDEX activity_recent ON activity (tenant_id, performed_at DESC, id DESC)');
    await enableTenantIsolation(knex, 'activity');
  },
  async down(knex) {
    for (const table of [
      'activity',
      'job_queue',
      'jobs',
      'returns',
      'statements',
      'invoices',
      'subcontractors',
      'settings',
    ])
      await knex.schema.dropTableIfExists(table);
  },
};
