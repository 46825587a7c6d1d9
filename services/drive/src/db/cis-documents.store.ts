import { camelise, snakeise, type Camelised, type Knex } from '@workspace/kit';
import type { CisDocumentKind } from '../domain/index.js';

interface CisDocumentRow {
  tenant_id: string;
  kind: CisDocumentKind;
  cis_id: string;
  submission_ref: string;
  file_id: string;
  file_version: number;
  tax_month: string;
  filed_at: Date;
}

export type CisDocumentRecord = Camelised<CisDocumentRow>;

/** Which cis document became which drive file (ADR 0046): the only code touching `cis_documents`. */
export class CisDocumentStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /** This version of the document, when it was filed. */
  async find(kind: CisDocumentKind, cisId: string, ref: string): Promise<CisDocumentRecord | undefined> {
    const row = await this.trx<CisDocumentRow>('cis_documents')
      .where({ kind, cis_id: cisId, submission_ref: ref })
      .first();
    return row ? camelise(row) : undefined;
  }

  /** The last filing of the document (any version), for a resubmission to become a new version of its file. */
  async latest(kind: CisDocumentKind, cisId: string): Promise<CisDocumentRecord | undefined> {
    const row = await this.trx<CisDocumentRow>('cis_documents')
      .where({ kind, cis_id: cisId })
      .orderBy('filed_at', 'desc')
      .orderBy('file_version', 'desc')
      .first();
    return row ? camelise(row) : undefined;
  }

  async insert(record: Omit<CisDocumentRecord, 'filedAt'>): Promise<void> {
    await this.trx('cis_documents').insert(snakeise(record));
  }

  /** Every filing of the tenant's documents, oldest first. */
  async list(): Promise<CisDocumentRecord[]> {
    const rows = await this.trx<CisDocumentRow>('cis_documents').orderBy('filed_at');
    return rows.map(camelise);
  }
}
