import { snakeise, type Knex } from '@workspace/kit';
import type {
  DeletePolicy,
  LibraryAccessView,
  LibraryAcl,
  LibraryPolicies,
  ShareSourcePolicy,
} from '../domain/index.js';

interface LibraryRow {
  id: string;
  tenant_id: string;
  drive_id: string;
  name: string;
  description: string;
  kind: 'library' | 'context';
  context_module_key: string | null;
  context_entity_type: string | null;
  context_entity_id: string | null;
  context_entity_name: string | null;
  member_ids: string[];
  visible_in_drive_ui: boolean;
  read_scopes: string[];
  write_scopes: string[];
  delete_scopes: string[];
  share_scopes: string[];
  read_only: boolean;
  legal_hold: boolean;
  share_allowed: boolean;
  delete_policy: DeletePolicy;
  allowed_extensions: string[];
  max_file_size_mb: number | null;
  external_allowed: boolean;
  require_watermark: boolean;
  require_record: boolean;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

/** A library as the service uses it: its fields, and its ACL and policies grouped as the access rules read them. */
export interface LibraryRecord extends LibraryAccessView {
  id: string;
  tenantId: string;
  driveId: string;
  name: string;
  description: string;
  kind: 'library' | 'context';
  context: { moduleKey: string; entityType: string; entityId: string; entityName: string } | null;
  memberIds: string[];
  visibleInDriveUI: boolean;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

export type NewLibrary = Omit<LibraryRecord, 'createdAt' | 'updatedAt'>;

const toRecord = (row: LibraryRow): LibraryRecord => {
  const acl: LibraryAcl = {
    readScopes: row.read_scopes,
    writeScopes: row.write_scopes,
    deleteScopes: row.delete_scopes,
    shareScopes: row.share_scopes,
  };
  const policies: LibraryPolicies = {
    readOnly: row.read_only,
    legalHold: row.legal_hold,
    shareAllowed: row.share_allowed,
    deletePolicy: row.delete_policy,
    allowedExtensions: row.allowed_extensions,
    maxFileSizeMB: row.max_file_size_mb,
  };
  const shareSourcePolicy: ShareSourcePolicy = {
    externalAllowed: row.external_allowed,
    requireWatermark: row.require_watermark,
    requireRecord: row.require_record,
  };
  return {
    id: row.id,
    tenantId: row.tenant_id,
    driveId: row.drive_id,
    name: row.name,
    description: row.description,
    kind: row.kind,
    context:
      row.kind === 'context'
        ? {
            moduleKey: row.context_module_key ?? '',
            entityType: row.context_entity_type ?? '',
            entityId: row.context_entity_id ?? '',
            entityName: row.context_entity_name ?? '',
          }
        : null,
    memberIds: row.member_ids,
    visibleInDriveUI: row.visible_in_drive_ui,
    acl,
    policies,
    shareSourcePolicy,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
};

const toRow = (library: Partial<NewLibrary>): Record<string, unknown> =>
  snakeise({
    id: library.id,
    tenantId: library.tenantId,
    driveId: library.driveId,
    name: library.name,
    description: library.description,
    kind: library.kind,
    contextModuleKey: library.context?.moduleKey,
    contextEntityType: library.context?.entityType,
    contextEntityId: library.context?.entityId,
    contextEntityName: library.context?.entityName,
    memberIds: library.memberIds,
    visibleInDriveUi: library.visibleInDriveUI,
    readScopes: library.acl?.readScopes,
    writeScopes: library.acl?.writeScopes,
    deleteScopes: library.acl?.deleteScopes,
    shareScopes: library.acl?.shareScopes,
    readOnly: library.policies?.readOnly,
    legalHold: library.policies?.legalHold,
    shareAllowed: library.policies?.shareAllowed,
    deletePolicy: library.policies?.deletePolicy,
    allowedExtensions: library.policies?.allowedExtensions,
    maxFileSizeMb: library.policies?.maxFileSizeMB,
    externalAllowed: library.shareSourcePolicy?.externalAllowed,
    requireWatermark: library.shareSourcePolicy?.requireWatermark,
    requireRecord: library.shareSourcePolicy?.requireRecord,
    createdBy: library.createdBy,
  });

/** Libraries: the only code touching `libraries`. */
export class LibraryStore {
  constructor(private readonly trx: Knex.Transaction) {}

  async get(id: string): Promise<LibraryRecord | undefined> {
    const row = await this.trx<LibraryRow>('libraries').where({ id }).whereNull('deleted_at').first();
    return row ? toRecord(row) : undefined;
  }

  async byDrive(driveId: string): Promise<LibraryRecord[]> {
    const rows = await this.trx<LibraryRow>('libraries')
      .where({ drive_id: driveId })
      .whereNull('deleted_at')
      .orderBy('created_at');
    return rows.map(toRecord);
  }

  async byContext(
    moduleKey: string,
    entityType: string,
    entityId: string,
  ): Promise<LibraryRecord | undefined> {
    const row = await this.trx<LibraryRow>('libraries')
      .where({
        kind: 'context',
        context_module_key: moduleKey,
        context_entity_type: entityType,
        context_entity_id: entityId,
      })
      .whereNull('deleted_at')
      .first();
    return row ? toRecord(row) : undefined;
  }

  async list(): Promise<LibraryRecord[]> {
    const rows = await this.trx<LibraryRow>('libraries').whereNull('deleted_at').orderBy('created_at');
    return rows.map(toRecord);
  }

  async insert(library: NewLibrary): Promise<void> {
    await this.trx('libraries').insert(toRow(library));
  }

  async update(id: string, changes: Partial<Omit<NewLibrary, 'id' | 'tenantId' | 'driveId'>>): Promise<void> {
    await this.trx('libraries')
      .where({ id })
      .update({ ...toRow(changes), updated_at: this.trx.fn.now() });
  }
}
