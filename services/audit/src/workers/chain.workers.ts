import { Counter, Gauge, type Registry } from 'prom-client';
import type { AuditDeps } from '../audit-deps.js';
import { checkpointAll } from '../commands/checkpoints.js';
import { checkAllChains, type ChainCheckMetrics } from '../commands/verify-chain.js';
import { IntervalWorker } from '@workspace/kit';

/** The chain check's metrics (docs/runbook.md "Audit chain break"), once per registry. */
export function chainCheckMetrics(registry: Registry): ChainCheckMetrics {
  const existing = registry.getSingleMetric('audit_chain_broken') as Gauge<'tenant'> | undefined;
  if (existing)
    return {
      broken: existing,
      checks: registry.getSingleMetric('audit_chain_checks_total') as Counter<'result'>,
    };
  return {
    broken: new Gauge({
      name: 'audit_chain_broken',
      help: "1 when the tenant's audit chain failed its last check (an entry edited, deleted or reordered), else 0",
      labelNames: ['tenant'] as const,
      registers: [registry],
    }),
    checks: new Counter({
      name: 'audit_chain_checks_total',
      help: 'Scheduled audit chain checks by result (ok, broken)',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
  };
}

/** Verifies every tenant's chain every AUDIT_CHAIN_CHECK_INTERVAL_MS (a break: the metric and an error line). */
export const chainCheckWorker = (deps: AuditDeps, metrics: ChainCheckMetrics) =>
  new IntervalWorker('audit-chain-check', deps.config.AUDIT_CHAIN_CHECK_INTERVAL_MS, deps.logger, () =>
    checkAllChains(deps, metrics),
  );

/** Signs every tenant's moved chain head every AUDIT_CHECKPOINT_INTERVAL_MS (with a key configured). */
export const checkpointWorker = (deps: AuditDeps) =>
  new IntervalWorker('audit-checkpoints', deps.config.AUDIT_CHECKPOINT_INTERVAL_MS, deps.logger, () =>
    checkpointAll(deps),
  );
