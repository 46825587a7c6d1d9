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

/** Drives and their members: the only code touching `drives` and `drive_members`. */
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
}
