import type { Knex } from '@workspace/kit';

/** A user's marks on files, stars and opens (Starred and Recent): the only code touching file_stars and file_views. */
export class FileActivityStore {
  constructor(private readonly trx: Knex.Transaction) {}

  async star(tenantId: string, fileId: string, userId: string): Promise<void> {
    await this.trx('file_stars')
      .insert({ tenant_id: tenantId, file_id: fileId, user_id: userId })
      .onConflict(['file_id', 'user_id'])
      .ignore();
  }

  async unstar(fileId: string, userId: string): Promise<void> {
    await this.trx('file_stars').where({ file_id: fileId, user_id: userId }).delete();
  }

  /** Clear Stars: every star of the user; how many there were. */
  async clearStars(userId: string): Promise<number> {
    return this.trx('file_stars').where({ user_id: userId }).delete();
  }

  /** The user opened the file now (a download or a preview): it heads their Recent. */
  async recordView(tenantId: string, fileId: string, userId: string, at: Date): Promise<void> {
    await this.trx('file_views')
      .insert({ tenant_id: tenantId, file_id: fileId, user_id: userId, viewed_at: at })
      .onConflict(['file_id', 'user_id'])
      .merge({ viewed_at: at });
  }

  /** Clear Recent: every open (and upload) the user's Recent lists; how many there were. */
  async clearRecent(userId: string): Promise<number> {
    return this.trx('file_views').where({ user_id: userId }).delete();
  }
}
