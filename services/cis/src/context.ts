import { createHash } from 'node:crypto';
import type { ErrorRequestHandler } from 'express';
import {
  HttpProblem,
  recordEvent,
  withTenant,
  type FieldCipher,
  type Knex,
  type Logger,
} from '@workspace/kit';
import { cisEvents, type CisAuditAction } from '@workspace/proto';
import type { CisConfig } from './config.js';

/** What the cis service needs of the notification service (its NotificationClient satisfies it). */
export interface Mailer {
  send(input: {
    tenantId: string;
    to: string | string[];
    replyTo?: string;
    subject: string;
    text: string;
    html?: string;
    attachments?: { filename: string; contentType: string; contentBase64: string }[];
    idempotencyKey?: string;
    category?: string;
  }): Promise<{ id: string; status: string; delivered: boolean; error?: string }>;
}

export interface AuditEntry {
  targetType: string;
  targetId?: string;
  /** One line a person reads in Recent Activity, without personal data (no UTR, NINO, email). */
  summary: string;
  targetIds?: string[];
  succeeded?: number;
  failed?: number;
  taxMonth?: string;
  details?: Record<string, string | number | boolean>;
}

/** Channel of the invoice change notifications (live list updates); the payload is `tenant:invoiceId:action`. */
export const INVOICE_CHANNEL = 'cis_invoice_changes';
/** Channel that wakes the job workers. */
export const JOB_CHANNEL = 'cis_jobs';
/** Each change of a job's state (status, progress), for its streams at every replica. */
export const JOB_CHANGES_CHANNEL = 'cis_job_changes';

const SUMMARY_TTL_MS = 60_000;
const MAX_FIGURES_PER_TENANT = 200;

export class CisContext {
  /**
   * Per tenant, what the invoice list derives from all of the tenant's invoices (the summary cards, the count of
   * a filter), dropped whenever an invoice of the tenant changes (every replica hears it) or after a minute.
   */
  private readonly derived = new Map<string, Map<string, { value: unknown; expires: number }>>();

  constructor(
    readonly db: Knex,
    readonly config: CisConfig,
    readonly cipher: FieldCipher,
    readonly logger: Logger,
    readonly source: string,
    readonly mailer: Mailer,
  ) {}

  inTenant<T>(tenantId: string, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return withTenant(this.db, tenantId, work);
  }

  /**
   * One audit action (cis.md section 7): a row in the tenant's activity log (Recent Activity) and the event on
   * cis.events.v1, in the caller's transaction. A bulk action is one entry carrying every target.
   */
  async audit(
    trx: Knex.Transaction,
    tenantId: string,
    actorId: string,
    action: CisAuditAction,
    entry: AuditEntry,
  ): Promise<void> {
    const details = Object.fromEntries(
      Object.entries(entry.details ?? {}).map(([key, value]) => [key, String(value)]),
    );
    await trx('activity').insert({
      tenant_id: tenantId,
      action,
      target_type: entry.targetType,
      target_id: entry.targetId ?? '',
      summary: entry.summary,
      details: JSON.stringify({
        ...details,
        ...(entry.taxMonth ? { taxMonth: entry.taxMonth } : {}),
        ...(entry.targetIds ? { count: String(entry.targetIds.length) } : {}),
      }),
      performed_by: actorId,
    });
    await recordEvent(trx, this.source, cisEvents[action], {
      tenantId,
      aggregateId: entry.targetId ?? entry.targetType,
      data: {
        actorId,
        targetType: entry.targetType,
        targetId: entry.targetId ?? '',
        targetIds: entry.targetIds ?? [],
        succeeded: entry.succeeded ?? 0,
        failed: entry.failed ?? 0,
        taxMonth: entry.taxMonth ?? '',
        details,
      },
    });
  }

  /** A derived figure of the tenant's invoices from the cache, or loaded and kept until an invoice changes. */
  async cachedInvoiceFigure<T>(tenantId: string, key: string, load: () => Promise<T>): Promise<T> {
    const figures = this.derived.get(tenantId) ?? new Map<string, { value: unknown; expires: number }>();
    const hit = figures.get(key);
    if (hit && hit.expires > Date.now()) return hit.value as T;
    const value = await load();
    if (figures.size >= MAX_FIGURES_PER_TENANT) figures.clear();
    figures.set(key, { value, expires: Date.now() + SUMMARY_TTL_MS });
    this.derived.set(tenantId, figures);
    return value;
  }

  invalidateInvoiceFigures(tenantId: string): void {
    this.derived.delete(tenantId);
  }

  /** Tells every replica's live subscribers that an invoice changed (delivered when the transaction commits). */
  async invoiceChanged(
    trx: Knex.Transaction,
    tenantId: string,
    ids: string[],
    action: string,
  ): Promise<void> {
    if (ids.length === 0) return;
    // Here at once and again after the commit (other replicas drop theirs when the notification arrives).
    this.invalidateInvoiceFigures(tenantId);
    void trx.executionPromise
      .then(() => {
        this.invalidateInvoiceFigures(tenantId);
      })
      .catch(() => undefined);
    const payload = JSON.stringify({ tenantId, action, ids: ids.length > 50 ? [] : ids, count: ids.length });
    await trx.raw('SELECT pg_notify(?, ?)', [INVOICE_CHANNEL, payload]);
  }

  /** Calls identity with the caller's own token (identity checks the scopes and the tenant). */
  async identityCall<T>(
    authorization: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T | undefined> {
    let response: globalThis.Response;
    try {
      response = await fetch(new URL(path, this.config.IDENTITY_URL), {
        method,
        headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      this.logger.error({ err: error }, 'identity is unreachable');
      throw new HttpProblem(503, 'unavailable', 'The identity service is temporarily unavailable.');
    }
    if (!response.ok) {
      const problem = (await response.json().catch(() => ({}))) as { detail?: string; code?: string };
      throw new HttpProblem(
        response.status >= 500 ? 502 : response.status,
        problem.code ?? 'upstream_failed',
        problem.detail ?? 'The identity service refused the request.',
      );
    }
    return response.status === 204 ? undefined : ((await response.json()) as T);
  }

  /** A portal magic link from identity, asked for with the caller's own token (identity checks the scope). */
  async createPortalLink(
    authorization: string,
    subcontractorId: string,
  ): Promise<{ magicLink: string; tenantName: string; expiresAt: string }> {
    let response: globalThis.Response;
    try {
      response = await fetch(new URL('/v1/portal/links', this.config.IDENTITY_URL), {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ subcontractorId }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      this.logger.error({ err: error }, 'identity is unreachable for a portal link');
      throw new HttpProblem(503, 'unavailable', 'Failed to send invitation');
    }
    if (!response.ok) {
      const problem = (await response.json().catch(() => ({}))) as { detail?: string };
      throw new HttpProblem(
        response.status === 403 ? 403 : 502,
        response.status === 403 ? 'forbidden' : 'upstream_failed',
        problem.detail ?? 'Failed to send invitation',
      );
    }
    return (await response.json()) as { magicLink: string; tenantName: string; expiresAt: string };
  }

  /** Seals a UTR or NINO; a failure is the spec's 'Failed to encrypt sensitive data' (the cause is logged). */
  encrypt(value: string): string {
    try {
      return this.cipher.encrypt(value);
    } catch (error) {
      this.logger.error({ err: error }, 'field encryption failed');
      throw new HttpProblem(500, 'encryption_failed', 'Failed to encrypt sensitive data');
    }
  }

  /** Opens a sealed value ('' for none); a failure (wrong or retired key, damage) is 'Failed to decrypt sensitive data'. */
  decrypt(value: string | null): string {
    if (!value) return '';
    try {
      return this.cipher.decrypt(value);
    } catch (error) {
      this.logger.error({ err: error }, 'field decryption failed');
      throw new HttpProblem(500, 'decryption_failed', 'Failed to decrypt sensitive data');
    }
  }
}

/**
 * Records refused and failed requests as the spec's audit actions: a 403 as cis.permission.denied, a 5xx as
 * cis.error (the cause stays in the log). Audit failures are swallowed with a warning (cis.md section 7).
 */
export function auditFailures(context: CisContext): ErrorRequestHandler {
  return (error: unknown, req, _res, next) => {
    const status = error instanceof HttpProblem ? error.status : 500;
    const ctx = req.ctx;
    if (ctx && (status === 403 || status >= 500)) {
      const action = status === 403 ? 'cis.permission.denied' : 'cis.error';
      void context
        .inTenant(ctx.tenantId, (trx) =>
          context.audit(trx, ctx.tenantId, ctx.userId, action, {
            targetType: status === 403 ? 'permission' : 'error',
            summary:
              status === 403
                ? `Permission denied: ${req.method} ${req.path}`
                : `Error on ${req.method} ${req.path}`,
            details: {
              method: req.method,
              path: req.path,
              status,
              ...(error instanceof HttpProblem && error.detail ? { reason: error.detail } : {}),
            },
          }),
        )
        .catch((auditError: unknown) => {
          context.logger.warn({ err: auditError }, 'audit entry could not be written');
        });
    }
    next(error);
  };
}

/** The statement key: the first 16 characters of a hash of the subcontractor and tax month (cis.md section 9). */
export function statementKey(subcontractorId: string, taxMonth: string): string {
  return createHash('sha256').update(`${subcontractorId}:${taxMonth}`).digest('hex').slice(0, 16);
}
