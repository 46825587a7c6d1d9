import { FieldCipher, systemClock, type Clock, type ServiceDefinition } from '@workspace/kit';
import { Gauge } from 'prom-client';
import { cisEvents } from '@workspace/proto';
import { cisMigrations } from '../migrations/index.js';
import { createCisDeps, type CisDeps } from './cis-deps.js';
import type { Mailer } from './clients/mailer.js';
import { sealStoredCis300 } from './commands/seal-stored-cis300.js';
import { fillIdentityHashes } from './commands/subcontractor-identity.js';
import type { CisConfig } from './config.js';
import { JobQueue } from './db/jobs.store.js';
import { auditFailures } from './http/audit-failures.js';
import { dashboardRoutes } from './http/dashboard.routes.js';
import { driveDocumentRoutes } from './http/drive-documents.routes.js';
import { invoiceRoutes } from './http/invoices.routes.js';
import { jobRoutes } from './http/jobs.routes.js';
import { portalRoutes } from './http/portal.routes.js';
import { signInLinkRoutes } from './http/sign-in-links.routes.js';
import { returnPeriodRoutes } from './http/return-periods.routes.js';
import { returnRoutes } from './http/returns.routes.js';
import { settingsRoutes } from './http/settings.routes.js';
import { statementRoutes } from './http/statements.routes.js';
import { subcontractorRoutes } from './http/subcontractors.routes.js';
import { subcontractorYearRoutes } from './http/subcontractor-year.routes.js';
import { InvoiceChangeHub, JobChangeHub } from './workers/change-hubs.js';
import { JobWorker } from './workers/job.worker.js';

export const CIS_SCHEMA = 'cis';

export interface CisService extends ServiceDefinition<CisConfig> {
  /** What the routes, commands and workers work with (once started). */
  deps(): CisDeps;
  jobs(): JobWorker;
}

/** What a test may swap: the business clock (the machine's by default), set to a day instead of waited for. */
export interface CisSeams {
  clock?: Clock;
}

/** The cis service: settings, subcontractors, invoices, statements, returns, dashboard (cis.md). */
export function cisService(config: CisConfig, mailer: Mailer, seams: CisSeams = {}): CisService {
  const cipher = FieldCipher.fromConfig(config.CIS_ENCRYPTION_KEYS);
  let deps: CisDeps | undefined;
  let hub: InvoiceChangeHub | undefined;
  let jobHub: JobChangeHub | undefined;
  let worker: JobWorker | undefined;
  const started = () => {
    if (!deps || !hub || !jobHub || !worker) throw new Error('cis has not started');
    return { deps, hub, jobHub, worker };
  };
  return {
    name: 'cis',
    schema: CIS_SCHEMA,
    migrations: cisMigrations,
    publishes: Object.values(cisEvents),
    deps: () => started().deps,
    jobs: () => started().worker,
    async setup(service) {
      const ready = createCisDeps({
        db: service.db,
        config,
        logger: service.logger,
        cipher,
        source: service.source,
        mailer,
        clock: seams.clock ?? systemClock,
      });
      deps = ready;
      hub = new InvoiceChangeHub(config.DATABASE_URL, service.logger, (tenantId) => {
        ready.invoiceFigures.invalidate(tenantId);
      });
      jobHub = new JobChangeHub(config.DATABASE_URL, service.logger);
      worker = new JobWorker(ready);
      // Documents stored in clear by an earlier version are sealed before anything reads them (migration 003).
      const sealed = await sealStoredCis300(ready);
      if (sealed > 0) service.logger.info({ sealed }, 'stored CIS300 documents sealed');
      // Subcontractors stored before migration 008 get their identifier hashes before anything compares them.
      const hashed = await fillIdentityHashes(ready);
      if (hashed > 0) service.logger.info({ hashed }, 'subcontractor identifier hashes filled in');
      // Queue depth and the oldest due job's age, read at scrape time (the queue holds ids only).
      const queue = new JobQueue(service.db);
      new Gauge({
        name: 'cis_job_queue_depth',
        help: 'Background jobs waiting or running (statement generation)',
        registers: [service.metrics],
        async collect() {
          this.set(await queue.depth());
        },
      });
      new Gauge({
        name: 'cis_job_queue_oldest_seconds',
        help: 'Age of the oldest due background job, in seconds (0 when none)',
        registers: [service.metrics],
        async collect() {
          const oldest = await queue.oldestDue();
          this.set(oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0);
        },
      });
    },
    workers: () => [hub, jobHub, worker].filter((w) => w !== undefined),
    routes: () => {
      const { deps: ready, hub: invoiceHub, jobHub: jobs } = started();
      const mounts = [
        { basePath: '/v1', api: settingsRoutes(ready) },
        { basePath: '/v1', api: subcontractorRoutes(ready) },
        { basePath: '/v1', api: subcontractorYearRoutes(ready) },
        { basePath: '/v1', api: invoiceRoutes(ready, invoiceHub) },
        { basePath: '/v1', api: statementRoutes(ready) },
        { basePath: '/v1', api: returnPeriodRoutes(ready) },
        { basePath: '/v1', api: returnRoutes(ready) },
        { basePath: '/v1', api: dashboardRoutes(ready) },
        { basePath: '/v1', api: jobRoutes(ready, jobs) },
        { basePath: '/v1', api: portalRoutes(ready) },
        { basePath: '/v1', api: signInLinkRoutes(ready) },
        { basePath: '/v1', api: driveDocumentRoutes(ready) },
      ];
      for (const mount of mounts) mount.api.router.use(auditFailures(ready));
      return mounts;
    },
  };
}
