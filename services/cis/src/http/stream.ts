import { ApiRouter, PgListener, type BackgroundWorker, type Logger } from '@workspace/kit';
import { INVOICE_CHANNEL } from '../context.js';

type Listener = (data: string) => void;

/**
 * Live invoice changes: one LISTEN per process on the invoice channel (every replica hears every commit), fanned
 * out to the Server-Sent-Event subscribers of the tenant the change belongs to.
 */
export class InvoiceChangeHub implements BackgroundWorker {
  readonly name = 'cis-invoice-changes';
  private readonly subscribers = new Map<string, Set<Listener>>();
  private readonly listener: PgListener;

  constructor(databaseUrl: string, logger: Logger, onChange: (tenantId: string) => void = () => undefined) {
    this.listener = new PgListener({
      databaseUrl,
      channel: INVOICE_CHANNEL,
      logger,
      onNotify: (payload) => {
        let tenantId: string | undefined;
        let data: string;
        try {
          const parsed = JSON.parse(payload) as {
            tenantId?: string;
            action?: string;
            ids?: string[];
            count?: number;
          };
          tenantId = parsed.tenantId;
          data = JSON.stringify({ action: parsed.action, ids: parsed.ids ?? [], count: parsed.count ?? 0 });
        } catch {
          return;
        }
        if (!tenantId) return;
        onChange(tenantId);
        for (const subscriber of this.subscribers.get(tenantId) ?? []) subscriber(data);
      },
    });
  }

  start(): void {
    this.listener.start();
  }

  async stop(): Promise<void> {
    for (const set of this.subscribers.values()) for (const subscriber of set) subscriber('');
    this.subscribers.clear();
    await this.listener.stop();
  }

  subscribe(tenantId: string, listener: Listener): () => void {
    const set = this.subscribers.get(tenantId) ?? new Set<Listener>();
    set.add(listener);
    this.subscribers.set(tenantId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.subscribers.delete(tenantId);
    };
  }
}

const HEARTBEAT_MS = 25_000;

export function streamRoutes(hub: InvoiceChangeHub): ApiRouter {
  return new ApiRouter().route({
    method: 'get',
    path: '/invoices/stream',
    summary: 'Server-Sent Events: `invoices` whenever an invoice of the tenant changes (the list refetches)',
    scopes: ['cis.inv.read'],
    responses: { 200: { description: 'text/event-stream' } },
    handler: ({ ctx, req, res }) =>
      new Promise<void>((resolve) => {
        res.status(200).set({
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'no-store',
          Connection: 'keep-alive',
          'X-Accel-Buffering': 'no',
        });
        res.flushHeaders();
        res.write('retry: 5000\n\n');
        const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
        const close = () => {
          clearInterval(heartbeat);
          unsubscribe();
          if (!res.writableEnded) res.end();
          resolve();
        };
        const unsubscribe = hub.subscribe(ctx.tenantId, (data) => {
          if (data === '') close();
          else res.write(`event: invoices\ndata: ${data}\n\n`);
        });
        req.on('close', close);
      }),
  });
}
