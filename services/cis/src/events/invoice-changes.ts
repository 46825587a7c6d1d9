import { notify } from '@workspace/kit';
import type { Knex } from '@workspace/kit';

/** Channel of the invoice change notifications (live list updates). */
export const INVOICE_CHANNEL = 'cis_invoice_changes';

const FIGURE_TTL_MS = 60_000;
const MAX_FIGURES_PER_TENANT = 200;

/**
 * Per tenant, what the invoice list derives from all of the tenant's invoices (the summary cards, the count of
 * a filter), dropped whenever an invoice of the tenant changes (every replica hears it) or after a minute.
 */
export class InvoiceFigureCache {
  private readonly figures = new Map<string, Map<string, { value: unknown; expires: number }>>();

  /** A derived figure of the tenant's invoices from the cache, or loaded and kept until an invoice changes. */
  async get<T>(tenantId: string, key: string, load: () => Promise<T>): Promise<T> {
    const figures = this.figures.get(tenantId) ?? new Map<string, { value: unknown; expires: number }>();
    const hit = figures.get(key);
    if (hit && hit.expires > Date.now()) return hit.value as T;
    const value = await load();
    if (figures.size >= MAX_FIGURES_PER_TENANT) figures.clear();
    figures.set(key, { value, expires: Date.now() + FIGURE_TTL_MS });
    this.figures.set(tenantId, figures);
    return value;
  }

  invalidate(tenantId: string): void {
    this.figures.delete(tenantId);
  }
}

/** Tells every replica's live subscribers that invoices changed (delivered when the transaction commits). */
export class InvoiceChangeNotifier {
  constructor(private readonly figures: InvoiceFigureCache) {}

  async changed(trx: Knex.Transaction, tenantId: string, ids: string[], action: string): Promise<void> {
    if (ids.length === 0) return;
    // Here at once and again after the commit (other replicas drop theirs when the notification arrives).
    this.figures.invalidate(tenantId);
    void trx.executionPromise
      .then(() => {
        this.figures.invalidate(tenantId);
      })
      .catch(() => undefined);
    const payload = JSON.stringify({ tenantId, action, ids: ids.length > 50 ? [] : ids, count: ids.length });
    await notify(trx, INVOICE_CHANNEL, payload);
  }
}
