import { SseHub, type Logger } from '@workspace/kit';
import { INVOICE_CHANNEL } from '../events/invoice-changes.js';
import { JOB_CHANGES_CHANNEL } from '../events/job-changes.js';

/**
 * Live invoice changes: the kit's SseHub on the invoice channel (every replica hears every commit), fanned out to
 * the Server-Sent-Event subscribers of the tenant the change belongs to as `event: invoices`.
 */
export class InvoiceChangeHub extends SseHub {
  constructor(databaseUrl: string, logger: Logger, onChange: (tenantId: string) => void = () => undefined) {
    super({
      name: 'cis-invoice-changes',
      databaseUrl,
      channel: INVOICE_CHANNEL,
      logger,
      parse: (payload) => {
        try {
          const parsed = JSON.parse(payload) as {
            tenantId?: string;
            action?: string;
            ids?: string[];
            count?: number;
          };
          if (!parsed.tenantId) return undefined;
          return {
            tenantId: parsed.tenantId,
            event: 'invoices',
            data: JSON.stringify({ action: parsed.action, ids: parsed.ids ?? [], count: parsed.count ?? 0 }),
          };
        } catch {
          return undefined;
        }
      },
      onMessage: (message) => {
        onChange(message.tenantId);
      },
    });
  }
}

/**
 * Live job states: `event: job` with {id, status, progress} on each change of a job of the tenant (started, each
 * statement done, completed, failed or retried), from every replica. `GET /jobs/:id/stream` serves one job's.
 */
export class JobChangeHub extends SseHub {
  constructor(databaseUrl: string, logger: Logger) {
    super({
      name: 'cis-job-changes',
      databaseUrl,
      channel: JOB_CHANGES_CHANNEL,
      logger,
      parse: (payload) => {
        try {
          const { tenantId, ...state } = JSON.parse(payload) as {
            tenantId?: string;
            id: string;
            status: string;
            progress: number;
          };
          return tenantId ? { tenantId, event: 'job', data: JSON.stringify(state) } : undefined;
        } catch {
          return undefined;
        }
      },
    });
  }
}
