import type { Knex } from '@workspace/kit';
import type { ContentCipher } from './emails.store.js';

/** A stored project request, opened. */
export interface ProjectRequestRecord {
  id: string;
  name: string;
  email: string;
  company: string;
  message: string;
  /** The e-mail to the sales inbox; null once its record has passed its retention. */
  emailId: string | null;
  createdAt: Date;
}

interface ProjectRequestRow {
  request_id: string;
  tenant_id: string;
  content_sealed: string;
  email_id: string | null;
  created_at: Date;
}

/** What `content_sealed` holds once opened: it names its request, so a sealed value copied to another row is refused. */
interface SealedRequest {
  requestId: string;
  name: string;
  email: string;
  company: string;
  message: string;
}

/**
 * The public site's project requests: the only code touching `project_requests`. Runs inside `withTenant` (the site's
 * partition, SITE_TENANT); the visitor's details are stored only sealed.
 */
export class ProjectRequestStore {
  constructor(
    private readonly trx: Knex.Transaction,
    private readonly cipher: ContentCipher,
  ) {}

  async insert(request: {
    id: string;
    tenantId: string;
    name: string;
    email: string;
    company: string;
    message: string;
    emailId: string;
  }): Promise<ProjectRequestRecord> {
    const sealed: SealedRequest = {
      requestId: request.id,
      name: request.name,
      email: request.email,
      company: request.company,
      message: request.message,
    };
    const [row] = await this.trx('project_requests')
      .insert({
        request_id: request.id,
        tenant_id: request.tenantId,
        content_sealed: this.cipher.encrypt(JSON.stringify(sealed)),
        email_id: request.emailId,
      })
      .returning<ProjectRequestRow[]>('*');
    if (!row) throw new Error('project request insert returned no row');
    return this.open(row);
  }

  async byId(id: string): Promise<ProjectRequestRecord | undefined> {
    const row = await this.trx<ProjectRequestRow>('project_requests').where({ request_id: id }).first();
    return row ? this.open(row) : undefined;
  }

  private open(row: ProjectRequestRow): ProjectRequestRecord {
    const content = JSON.parse(this.cipher.decrypt(row.content_sealed)) as SealedRequest;
    if (content.requestId !== row.request_id) {
      throw new Error(`project request ${row.request_id} holds another request's content`);
    }
    return {
      id: row.request_id,
      name: content.name,
      email: content.email,
      company: content.company,
      message: content.message,
      emailId: row.email_id,
      createdAt: row.created_at,
    };
  }
}
