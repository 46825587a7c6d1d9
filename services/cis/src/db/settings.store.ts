import { camelise, snakeise, type Camelised } from '@workspace/kit';
import type { Knex } from '@workspace/kit';

interface SettingsRow {
  tenant_id: string;
  active: boolean;
  company_name: string;
  employer_ref: string;
  accounts_office_ref: string;
  utr_enc: string | null;
  utr_masked: string;
  vat_scheme: string;
  email_statements: boolean;
  warning_days: number;
  statement_deadline_days: number;
  email_from: string;
  email_reply_to: string;
  statement_footer: string;
  /** The London date the module was first switched on (migration 004), from which every month owes a return. */
  active_since: string | null;
  created_at: Date;
  updated_at: Date;
  updated_by: string | null;
}

export type SettingsRecord = Camelised<SettingsRow>;

export type SettingsChanges = Partial<
  Omit<SettingsRecord, 'tenantId' | 'createdAt' | 'updatedAt' | 'updatedBy'>
>;

/** The tenant's CIS settings: the only code touching `settings`. */
export class SettingsStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /** The tenant's settings, created with the spec's defaults on first read (cis.md section 4 'Settings'). */
  async load(tenantId: string): Promise<SettingsRecord> {
    const existing = await this.trx<SettingsRow>('settings').where({ tenant_id: tenantId }).first();
    if (existing) return camelise(existing);
    await this.trx('settings').insert({ tenant_id: tenantId }).onConflict('tenant_id').ignore();
    const created = await this.trx<SettingsRow>('settings').where({ tenant_id: tenantId }).first();
    if (!created) throw new Error('CIS settings could not be created');
    return camelise(created);
  }

  /** Saves the settings (the update time is the database's); undefined when the tenant has none. */
  async update(
    tenantId: string,
    changes: SettingsChanges,
    userId: string,
  ): Promise<SettingsRecord | undefined> {
    const { trx } = this;
    const [row] = await trx<SettingsRow>('settings')
      .where({ tenant_id: tenantId })
      .update({ ...snakeise(changes), updated_at: trx.fn.now(), updated_by: userId })
      .returning('*');
    return row ? camelise(row) : undefined;
  }
}
