import { FieldCipher, type ServiceDefinition } from '@workspace/kit';
import { Gauge } from 'prom-client';
import { cisEvents } from '@workspace/proto';
import { cisMigrations } from '../migrations/index.js';
import type { CisConfig } from './config.js';
import { auditFailures, CisContext, type Mailer } from './context.js';
import { dashboardRoutes } from './http/dashboard.js';
import { invoiceRoutes } from './http/invoices.js';
import { portalRoutes } from './http/portal.js';
import { returnRoutes } from './http/returns.js';
import { settingsRoutes } from './http/settings.js';
import { statementRoutes } from './http/statements.js';
import { InvoiceChangeHub, JobChangeHub, streamRoutes } from './http/stream.js';
import { subcontractorRoutes } from './http/subcontractors.js';
import { JobWorker, jobRoutes } from './jobs.js';

export const CIS_SCHEMA = 'cis';

export interface CisService extends ServiceDefinition<CisConfig> {
  context(): CisContext;
  jobs(): JobWorker;
}

/** The cis service: settings, subcontractors, invoices, statements, returns, dashboard (cis.md). */
export function cisService(config: CisConfig, mailer: Mailer): CisService {
  const cipher = FieldCipher.fromConfig(config.CIS_ENCRYPTION_KEYS);
  let context: CisContext | undefined;
  let hub: InvoiceChangeHub | undefined;
  let jobHub: JobChangeHub | undefined;
  let worker: JobWorker | undefined;
  const current = () => {
    if (!context) throw new Error('cis has not started');
    return context;
  };
  return {
    name: 'cis',
    schema: CIS_SCHEMA,
    migrations: cisMigrations,
    // CSV imports of 10,000+ rows arrive as one JSON body.
    bodyLimit: '16mb',
    publishes: Object.values(cisEvents),
    context: current,
    jobs: () => {
      if (!worker) throw new Error('cis has not started');
      return worker;
    },
    setup(deps) {
      context = new CisContext(deps.db, config, cipher, deps.logger, deps.source, mailer);
      const ready = context;
      hub = new InvoiceChangeHub(config.DATABASE_URL, deps.logger, (tenantId) => {
        ready.invalidateInvoiceFigures(tenantId);
      });
      jobHub = new JobChangeHub(config.DATABASE_URL, deps.logger);
      worker = new JobWorker(context);
      // Queue depth and the oldest due job's age, read at scrape time (the queue holds ids only).
      const { db } = deps;
      new Gauge({
        name: 'cis_job_queue_depth',
        help: 'Background jobs waiting or running (statement generation)',
        registers: [deps.metrics],
        async collect() {
          const row = await db('job_queue').count<{ count: number }[]>('* as count').first();
          this.set(row?.count ?? 0);
        },
      });
      new Gauge({
        name: 'cis_job_queue_oldest_seconds',
        help: 'Age of the oldest due background job, in seconds (0 when none)',
        registers: [deps.metrics],
        async collect() {
          const row = await db('job_queue')
            .where('run_after', '<=', db.fn.now())
            .min<{ oldest: Date | null }[]>('run_after as oldest')
            .first();
          this.set(row?.oldest ? Math.max(0, (Date.now() - new Date(row.oldest).getTime()) / 1000) : 0);
        },
      });
      return Promise.resolve();
    },
    workers: () => [hub, jobHub, worker].filter((w) => w !== undefined),
    routes: () => {
      const ctx = current();
      if (!hub || !jobHub) throw new Error('cis has not started');
      const mounts = [
        { basePath: '/v1', api: settingsRoutes(ctx) },
        { basePath: '/v1', api: streamRoutes(hub) },
        { basePath: '/v1', api: subcontractorRoutes(ctx) },
        { basePath: '/v1', api: invoiceRoutes(ctx) },
        { basePath: '/v1', api: statementRoutes(ctx) },
        { basePath: '/v1', api: returnRoutes(ctx) },
        { basePath: '/v1', api: dashboardRoutes(ctx) },
        { basePath: '/v1', api: jobRoutes(ctx, jobHub) },
        { basePath: '/v1', api: portalRoutes(ctx) },
      ];
      for (const mount of mounts) mount.api.router.use(auditFailures(ctx));
      return mounts;
    },
  };
}
