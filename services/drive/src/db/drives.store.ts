import { camelise, snakeise, type Camelised, type Knex } from '@workspace/kit';
import type { DriveType, MemberRole } from '../domain/index.js';

interface DriveRow {
  id: string;
  tenant_id: string;
  name: string;
  type: DriveType;
  slug: string;
  owner_id: string;
  module_id: string | null;
  visibility: 'members' | 'tenant';
  color: string;
  icon: string;
  description: string;
  allow_external_sharing: boolean;
  retention_days: number | null;
  quota_gb: number;
  versioning_enabled: boolean;
  max_versions: number;
  default_library_id: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

interface MemberRow {
  tenant_id: string;
  drive_id: string;
  user_id: string;
  role: MemberRole;
  display_name: string;
  added_at: Date;
  added_by: string;
}

export type DriveMember = Camelised<MemberRow>;
export type DriveRecord = Camelised<DriveRow> & { members: DriveMember[] };
export type NewDrive = Omit<Camelised<DriveRow>, 'createdAt' | 'updatedAt' | 'deletedAt'>;

/** Drives and their members: the only code touching `drives` and `drive_members` (their folders: FolderStore). */
export class DriveStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /** A live drive with its members; undefined when there is none (or it is another tenant's). */
  async get(id: string): Promise<DriveRecord | undefined> {
    const row = await this.trx<DriveRow>('drives').where({ id }).whereNull('deleted_at').first();
    if (!row) return undefined;
    const members = await this.trx<MemberRow>('drive_members').where({ drive_id: id }).orderBy('added_at');
    return { ...camelise(row), members: members.map(camelise) };
  }

  /** The module's drive, when it has been provisioned. */
  async byModule(moduleId: string): Promise<DriveRecord | undefined> {
    const row = await this.trx<DriveRow>('drives')
      .where({ module_id: moduleId })
      .whereNull('deleted_at')
      .first();
    return row ? this.get(row.id) : undefined;
  }

  /** Every live drive of the tenant with its members (a tenant has tens of drives, not thousands). */
  async list(): Promise<DriveRecord[]> {
    const rows = await this.trx<DriveRow>('drives').whereNull('deleted_at').orderBy('created_at');
    const members = await this.trx<MemberRow>('drive_members')
      .whereIn(
        'drive_id',
        rows.map((row) => row.id),
      )
      .orderBy('added_at');
    return rows.map((row) => ({
      ...camelise(row),
      members: members.filter((member) => member.drive_id === row.id).map(camelise),
    }));
  }

  async insert(
    drive: NewDrive,
    members: Omit<DriveMember, 'tenantId' | 'driveId' | 'addedAt'>[],
  ): Promise<void> {
    await this.trx('drives').insert(snakeise(drive));
    if (members.length > 0) {
      await this.trx('drive_members').insert(
        members.map((member) => snakeise({ ...member, tenantId: drive.tenantId, driveId: drive.id })),
      );
    }
  }

  async update(id: string, changes: Partial<Omit<NewDrive, 'id' | 'tenantId'>>): Promise<void> {
    await this.trx('drives')
      .where({ id })
      .update({ ...snakeise(changes), updated_at: this.trx.fn.now() });
  }

  /** The user's personal drive, when it has been made. */
  async personalOf(userId: string): Promise<DriveRecord | undefined> {
    const row = await this.trx<DriveRow>('drives')
      .where({ type: 'personal', owner_id: userId })
      .whereNull('deleted_at')
      .first();
    return row ? this.get(row.id) : undefined;
  }

  /**
   * Serialises work on one key (a module's drive, a personal drive, a context library, a CIS document) until the
   * transaction ends, so two first uses at once make one thing.
   */
  async lock(key: string): Promise<void> {
    await this.trx.raw('SELECT pg_advisory_xact_lock(hashtext(current_setting(?, true) || ?))', [
      'app.tenant_id',
      `:${key}`,
    ]);
  }

  /** Files, bytes and the last change of each drive's live files (drive.md §3 stats). */
  async stats(
    driveIds: readonly string[],
  ): Promise<Map<string, { fileCount: number; totalSize: number; lastActivity: Date | null }>> {
    if (driveIds.length === 0) return new Map();
    const { rows } = await this.trx.raw<{
      rows: { drive_id: string; file_count: number; total_size: string; last_activity: Date | null }[];
    }>(
      `SELECT drive_id, count(*)::int AS file_count, coalesce(sum(size), 0)::bigint AS total_size,
              max(updated_at) AS last_activity
         FROM files WHERE drive_id = ANY(?::uuid[]) AND status = 'active' GROUP BY drive_id`,
      [[...driveIds]],
    );
    return new Map(
      rows.map((row) => [
        row.drive_id,
        { fileCount: row.file_count, totalSize: Number(row.total_size), lastActivity: row.last_activity },
      ]),
    );
  }

  async addMembers(
    tenantId: string,
    driveId: string,
    members: Omit<DriveMember, 'tenantId' | 'driveId' | 'addedAt'>[],
  ): Promise<void> {
    if (members.length === 0) return;
    await this.trx('drive_members')
      .insert(members.map((member) => snakeise({ ...member, tenantId, driveId })))
      .onConflict(['drive_id', 'user_id'])
      .ignore();
  }

  async removeMember(driveId: string, userId: string): Promise<boolean> {
    return (await this.trx('drive_members').where({ drive_id: driveId, user_id: userId }).delete()) > 0;
  }

  async setMemberRole(driveId: string, userId: string, role: MemberRole): Promise<boolean> {
    return (
      (await this.trx('drive_members').where({ drive_id: driveId, user_id: userId }).update({ role })) > 0
    );
  }
}
