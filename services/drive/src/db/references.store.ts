import { camelise, type Camelised, type Knex } from '@workspace/kit';

interface ReferenceRow {
  id: string;
  tenant_id: string;
  file_id: string;
  module_id: string;
  entity_id: string;
  reference_type: string;
  metadata: Record<string, unknown>;
  created_at: Date;
}

interface IntentRow {
  tenant_id: string;
  file_id: string;
  module_id: string;
  entity_id: string;
  reference_type: string;
  metadata: Record<string, unknown>;
  last_error: string;
  attempts: number;
  created_at: Date;
}

export type FileReference = Camelised<ReferenceRow>;
/** A module reference a registered file should have had, kept when writing it failed (repair-refs recreates it). */
export type ReferenceIntent = Camelised<IntentRow>;
export type NewReference = Pick<
  FileReference,
  'id' | 'tenantId' | 'fileId' | 'moduleId' | 'entityId' | 'referenceType' | 'metadata'
>;
type ReferenceKey = Pick<FileReference, 'moduleId' | 'entityId' | 'referenceType'>;

/** Files' module references and the ones still to write: the only code touching `file_refs` and `file_ref_intents`. */
export class ReferenceStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /** Adds the reference; the same module, entity and type again answers the one already there. */
  async add(reference: NewReference): Promise<FileReference> {
    await this.trx('file_refs')
      .insert({
        id: reference.id,
        tenant_id: reference.tenantId,
        file_id: reference.fileId,
        module_id: reference.moduleId,
        entity_id: reference.entityId,
        reference_type: reference.referenceType,
        metadata: JSON.stringify(reference.metadata),
      })
      .onConflict(['tenant_id', 'file_id', 'module_id', 'entity_id', 'reference_type'])
      .ignore();
    const row = await this.trx<ReferenceRow>('file_refs')
      .where({
        file_id: reference.fileId,
        module_id: reference.moduleId,
        entity_id: reference.entityId,
        reference_type: reference.referenceType,
      })
      .first();
    if (!row) throw new Error(`reference of file ${reference.fileId} was not stored`);
    return camelise(row);
  }

  async get(fileId: string, id: string): Promise<FileReference | undefined> {
    const row = await this.trx<ReferenceRow>('file_refs').where({ file_id: fileId, id }).first();
    return row ? camelise(row) : undefined;
  }

  async forFile(fileId: string): Promise<FileReference[]> {
    const rows = await this.trx<ReferenceRow>('file_refs').where({ file_id: fileId }).orderBy('created_at');
    return rows.map(camelise);
  }

  /** The module ids of each file's references (the refs counters of the file list). */
  async modulesOf(fileIds: readonly string[]): Promise<Map<string, string[]>> {
    const modules = new Map<string, string[]>();
    if (fileIds.length === 0) return modules;
    const rows = await this.trx<ReferenceRow>('file_refs')
      .whereIn('file_id', fileIds)
      .select('file_id', 'module_id');
    for (const row of rows) modules.set(row.file_id, [...(modules.get(row.file_id) ?? []), row.module_id]);
    return modules;
  }

  async remove(fileId: string, id: string): Promise<boolean> {
    return (await this.trx('file_refs').where({ file_id: fileId, id }).delete()) > 0;
  }

  /** Every reference of these files and every one still to write (a purge). */
  async removeAll(fileIds: readonly string[]): Promise<void> {
    if (fileIds.length === 0) return;
    await this.trx('file_refs').whereIn('file_id', fileIds).delete();
    await this.trx('file_ref_intents').whereIn('file_id', fileIds).delete();
  }

  /** Keeps the reference to write later; a second failure of the same one counts another attempt. */
  async recordIntent(intent: Omit<ReferenceIntent, 'attempts' | 'createdAt'>): Promise<void> {
    await this.trx('file_ref_intents')
      .insert({
        tenant_id: intent.tenantId,
        file_id: intent.fileId,
        module_id: intent.moduleId,
        entity_id: intent.entityId,
        reference_type: intent.referenceType,
        metadata: JSON.stringify(intent.metadata),
        last_error: intent.lastError,
      })
      .onConflict(['file_id', 'module_id', 'entity_id', 'reference_type'])
      .merge({ last_error: intent.lastError, attempts: this.trx.raw('file_ref_intents.attempts + 1') });
  }

  async intents(fileId: string): Promise<ReferenceIntent[]> {
    const rows = await this.trx<IntentRow>('file_ref_intents')
      .where({ file_id: fileId })
      .orderBy('created_at');
    return rows.map(camelise);
  }

  async removeIntent(fileId: string, key: ReferenceKey): Promise<void> {
    await this.trx('file_ref_intents')
      .where({
        file_id: fileId,
        module_id: key.moduleId,
        entity_id: key.entityId,
        reference_type: key.referenceType,
      })
      .delete();
  }
}
