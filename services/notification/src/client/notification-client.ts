import { ServiceClient, UpstreamProblem, type HttpMethod, type ServiceRequest } from '@workspace/kit';
import type { EmailStatus } from '../domain/delivery.js';

export interface SendEmailInput {
  tenantId: string;
  to: string | string[];
  cc?: string | string[];
  replyTo?: string;
  /** The sender's name as the recipient sees it; the platform's (MAIL_FROM) when absent. */
  fromName?: string;
  /** Sent from only on a domain set up to send (MAIL_SENDING_DOMAINS); else the Reply-To, with the platform's From. */
  fromAddress?: string;
  subject: string;
  text: string;
  html?: string;
  /** Up to 10 MB in all (decoded). */
  attachments?: { filename: string; contentType: string; contentBase64: string }[];
  /** A repeat with the same key (per tenant) answers the first e-mail's state instead of sending again. */
  idempotencyKey?: string;
  /** e.g. portal-invite, cis-statement */
  category?: string;
  /** The sender's own id of what it is about (a statement, a subcontractor): its dead letter is found by it. */
  reference?: string;
  /** Default true: the service tries once before answering. */
  waitForFirstAttempt?: boolean;
}

export interface SendEmailResult {
  id: string;
  status: EmailStatus;
  /** The SMTP server accepted it. When false the service keeps retrying (status retrying or queued), or gave up (failed). */
  delivered: boolean;
  error?: string;
}

export interface EmailStatusView extends SendEmailResult {
  tenantId: string;
  attempts: number;
  category: string | null;
  reference: string | null;
  idempotencyKey: string | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  messageId: string;
  sentAt: string | null;
  deadLetteredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An e-mail that could not be delivered after its retries (GET /v1/dead-letters): no content, no addresses. */
export interface DeadLetter {
  id: string;
  category: string;
  reference: string | null;
  idempotencyKey: string | null;
  attempts: number;
  lastError: string | null;
  failedAt: string;
  createdAt: string;
  /** failed: undelivered after its retries (a resend too); resending: resent, on its way again; delivered: resent and delivered. */
  state: 'failed' | 'resending' | 'delivered';
  resentAt: string | null;
  resentBy: string | null;
  resendCount: number;
  deliveredAt: string | null;
}

/** The notification service could not be reached, or failed (5xx): the e-mail may not have been stored. */
export class NotificationUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NotificationUnavailableError';
  }
}

/** The service refused the request (4xx: a bad address, a wrong token, a reused idempotency key). */
export class NotificationRequestError extends Error {
  constructor(
    readonly status: number,
    readonly problem: { code?: string; detail?: string; errors?: { field: string; message: string }[] },
  ) {
    super(
      `The notification service refused the e-mail (${status}${problem.code ? ` ${problem.code}` : ''}): ${
        problem.detail ?? 'no detail'
      }${problem.errors?.length ? ` ${problem.errors.map((error) => `${error.field}: ${error.message}`).join('; ')}` : ''}`,
    );
    this.name = 'NotificationRequestError';
  }
}

export interface NotificationClientOptions {
  /** e.g. http://notification:3000 */
  baseUrl: string;
  /** The notification service's INTERNAL_API_TOKEN. */
  internalToken: string;
  /** Per request; default 30 s (the service's first attempt alone may take SMTP_TIMEOUT_MS). */
  timeoutMs?: number;
}

/**
 * For other services. `send` resolves whether or not the SMTP server took the e-mail (see `delivered` and
 * `status`: the service retries on its own); it rejects only when the notification service is unreachable or
 * failing (`NotificationUnavailableError`) or refuses the request (`NotificationRequestError`). A send with an
 * idempotency key is safe to repeat, so the kit's client retries it like a read.
 */
export class NotificationClient {
  private readonly http: ServiceClient;

  constructor(options: NotificationClientOptions) {
    this.http = new ServiceClient({
      service: 'notification',
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs ?? 30_000,
      internalToken: options.internalToken,
      failure: { serverErrors: 'pass' },
    });
  }

  send(input: SendEmailInput): Promise<SendEmailResult> {
    return this.call<SendEmailResult>('POST', {
      path: '/v1/emails',
      body: input,
      idempotent: input.idempotencyKey !== undefined,
    });
  }

  status(tenantId: string, id: string): Promise<EmailStatusView> {
    return this.call<EmailStatusView>('GET', {
      path: `/v1/emails/${encodeURIComponent(id)}`,
      query: { tenantId },
    });
  }

  /**
   * The tenant's dead letters of a category (optionally only about these references), newest first: e-mails that
   * failed for good and that no later e-mail about the same reference replaced.
   */
  async deadLetters(
    tenantId: string,
    category: string,
    references?: readonly string[],
  ): Promise<DeadLetter[]> {
    const ask = async (some?: readonly string[]) =>
      (
        await this.call<{ items: DeadLetter[] }>('GET', {
          path: '/v1/dead-letters',
          query: { tenantId, category, ...(some ? { references: some.join(',') } : {}) },
        })
      ).items;
    if (!references) return ask();
    // At most 200 references a call.
    const found: DeadLetter[] = [];
    for (let start = 0; start < references.length; start += 200) {
      found.push(...(await ask(references.slice(start, start + 200))));
    }
    return found;
  }

  /**
   * Resends a dead letter of the sender's category from its stored content (POST /v1/dead-letters/{id}/resend): back
   * on the delivery queue with fresh retries. A repeat while it is on its way (or once delivered) sends nothing more
   * and answers its state. Rejects with `NotificationRequestError` 404 (not this tenant's or category's), 409 (not a
   * dead letter) or 410 (its content is no longer kept: send a new e-mail).
   */
  resendDeadLetter(
    tenantId: string,
    category: string,
    id: string,
    resentBy: string,
    /** The recipients now (a corrected address), replacing the stored To; the stored ones when absent. */
    to?: string | string[],
  ): Promise<DeadLetter> {
    return this.call<DeadLetter>('POST', {
      path: `/v1/dead-letters/${encodeURIComponent(id)}/resend`,
      body: { tenantId, category, resentBy, ...(to ? { to } : {}) },
      // Safe to repeat: a second resend answers the first one's state.
      idempotent: true,
    });
  }

  private async call<T>(method: HttpMethod, request: ServiceRequest): Promise<T> {
    try {
      return (await this.http.request(method, { ...request, caller: 'internal' })) as T;
    } catch (error) {
      if (!(error instanceof UpstreamProblem)) throw error;
      const { status, code, detail, errors } = error.upstream;
      const where = `The notification service at ${this.http.baseUrl}`;
      if (status === undefined) {
        const { message } = (error.cause ?? {}) as { message?: unknown };
        const cause = typeof message === 'string' ? message : String(error.cause);
        throw new NotificationUnavailableError(`${where} is not reachable: ${cause}`, { cause: error.cause });
      }
      if (status >= 500) {
        throw new NotificationUnavailableError(`${where} failed (${status}) on ${method} ${request.path}`);
      }
      throw new NotificationRequestError(status, { code, detail, errors });
    }
  }
}
