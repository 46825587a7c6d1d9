import { camelise, type Knex } from '@workspace/kit';

export interface StoredCheckpoint {
  tenantId: string;
  seq: number;
  hash: string;
  signedAt: Date;
  algorithm: string;
  keyId: string;
  signature: string;
}

interface CheckpointRow {
  tenant_id: string;
  seq: string;
  hash: string;
  signed_at: Date;
  algorithm: string;
  key_id: string;
  signature: string;
}

const toCheckpoint = (row: CheckpointRow): StoredCheckpoint => ({ ...camelise(row), seq: Number(row.seq) });

/** The tenant's signed checkpoints (audit_checkpoints): the only code touching them. */
export class CheckpointsStore {
  constructor(private readonly trx: Knex.Transaction) {}

  async latest(tenantId: string): Promise<StoredCheckpoint | undefined> {
    const row = await this.trx('audit_checkpoints')
      .where({ tenant_id: tenantId })
      .orderBy('seq', 'desc')
      .first<CheckpointRow | undefined>();
    return row && toCheckpoint(row);
  }

  /** Stores a checkpoint; false when the tenant already has one at that seq. */
  async insert(checkpoint: StoredCheckpoint): Promise<boolean> {
    const inserted = await this.trx('audit_checkpoints')
      .insert({
        tenant_id: checkpoint.tenantId,
        seq: checkpoint.seq,
        hash: checkpoint.hash,
        signed_at: checkpoint.signedAt,
        algorithm: checkpoint.algorithm,
        key_id: checkpoint.keyId,
        signature: checkpoint.signature,
      })
      .onConflict(['tenant_id', 'seq'])
      .ignore()
      .returning('seq');
    return inserted.length > 0;
  }

  async all(tenantId: string): Promise<StoredCheckpoint[]> {
    const rows = await this.trx('audit_checkpoints')
      .where({ tenant_id: tenantId })
      .orderBy('seq')
      .select<CheckpointRow[]>();
    return rows.map(toCheckpoint);
  }
}
