import { camelise, snakeise, type Camelised, type Knex } from '@workspace/kit';

export const SIGN_TASK_STATES = ['pending', 'signed', 'declined'] as const;
export type SignTaskState = (typeof SIGN_TASK_STATES)[number];

interface SignTaskRow {
  id: string;
  tenant_id: string;
  file_id: string;
  assigned_to_uid: string;
  created_by_uid: string;
  status: SignTaskState;
  created_at: Date;
  signed_at: Date | null;
  signature_path: string | null;
  signed_version: number | null;
  hash_before: string | null;
  hash_after: string | null;
  declined_at: Date | null;
  decline_reason: string | null;
}

export type SignTaskRecord = Camelised<SignTaskRow>;

/** A task with what the lists show of its file. */
export type ListedSignTask = SignTaskRecord & { fileName: string; driveId: string; fileVersion: number };

export class PendingRequestExists extends Error {}

/** Signature requests: the only code touching `sign_tasks`. */
export class SignTaskStore {
  constructor(private readonly trx: Knex.Transaction) {}

  async get(id: string): Promise<SignTaskRecord | undefined> {
    const row = await this.trx<SignTaskRow>('sign_tasks').where({ id }).first();
    return row ? camelise(row) : undefined;
  }

  /** The task locked for its change (two signatures of one task at once: the second waits, then finds it signed). */
  async getForUpdate(id: string): Promise<SignTaskRecord | undefined> {
    const row = await this.trx<SignTaskRow>('sign_tasks').where({ id }).forUpdate().first();
    return row ? camelise(row) : undefined;
  }

  /** The stored signature images of these files' tasks (a purge removes them with the file). */
  async signaturePathsOf(fileIds: readonly string[]): Promise<{ fileId: string; key: string }[]> {
    if (fileIds.length === 0) return [];
    const rows = await this.trx<SignTaskRow>('sign_tasks')
      .whereIn('file_id', fileIds)
      .whereNotNull('signature_path')
      .select('file_id', 'signature_path');
    return rows.map((row) => ({ fileId: row.file_id, key: row.signature_path ?? '' }));
  }

  async pendingFor(fileId: string, assignedToUid: string): Promise<SignTaskRecord | undefined> {
    const row = await this.trx<SignTaskRow>('sign_tasks')
      .where({ file_id: fileId, assigned_to_uid: assignedToUid, status: 'pending' })
      .first();
    return row ? camelise(row) : undefined;
  }

  /** A new pending request; PendingRequestExists when one for the file and assignee is already pending. */
  async insert(
    task: Pick<SignTaskRecord, 'id' | 'tenantId' | 'fileId' | 'assignedToUid' | 'createdByUid' | 'createdAt'>,
  ): Promise<SignTaskRecord> {
    try {
      const [row] = await this.trx<SignTaskRow>('sign_tasks')
        .insert({ ...snakeise(task), status: 'pending' })
        .returning('*');
      if (!row) throw new Error(`sign task ${task.id} was not stored`);
      return camelise(row);
    } catch (error) {
      if ((error as { constraint?: string }).constraint === 'sign_tasks_one_pending') {
        throw new PendingRequestExists();
      }
      throw error;
    }
  }

  async update(
    id: string,
    changes: Partial<Omit<SignTaskRecord, 'id' | 'tenantId' | 'fileId' | 'createdAt'>>,
  ): Promise<void> {
    await this.trx('sign_tasks').where({ id }).update(snakeise(changes));
  }

  /**
   * The tasks of one state assigned to (or created by) a user, with their file's name: newest first (pending by when
   * asked, signed by when signed), at most `limit`. Pending requests on trashed files are left out.
   */
  async list(filter: {
    userId: string;
    scope: 'assigned' | 'created';
    status: SignTaskState;
    limit: number;
  }): Promise<ListedSignTask[]> {
    const order =
      filter.status === 'signed'
        ? 't.signed_at'
        : filter.status === 'declined'
          ? 't.declined_at'
          : 't.created_at';
    const query = this.trx<SignTaskRow>('sign_tasks as t')
      .join('files as f', 'f.id', 't.file_id')
      .where(filter.scope === 'assigned' ? 't.assigned_to_uid' : 't.created_by_uid', filter.userId)
      .where('t.status', filter.status);
    // A pending request on a file in the trash cannot be signed until the file is restored.
    if (filter.status === 'pending') void query.where('f.status', 'active');
    const rows = await query
      .orderBy([
        { column: order, order: 'desc' },
        { column: 't.id', order: 'desc' },
      ])
      .limit(filter.limit)
      .select('t.*', 'f.name as file_name', 'f.drive_id as drive_id', 'f.version as file_version');
    return rows.map((row: unknown) => {
      const { file_name, drive_id, file_version, ...task } = row as SignTaskRow & {
        file_name: string;
        drive_id: string;
        file_version: number;
      };
      return { ...camelise(task), fileName: file_name, driveId: drive_id, fileVersion: file_version };
    });
  }
}
