import type { Knex } from '@workspace/kit';
import { londonDate } from '@workspace/rules';
import { UsageStore } from '../db/usage.store.js';
import { usageCounter, type FileTypeClass } from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';

/** Counts bytes taken (positive) or released (negative) and files added or removed against the tenant's quota. */
export async function accountUsage(
  deps: DriveDeps,
  trx: Knex.Transaction,
  tenantId: string,
  change: { bytes: number; files: number; typeClass: FileTypeClass },
): Promise<void> {
  await new UsageStore(trx).record(tenantId, {
    bytes: change.bytes,
    files: change.files,
    counter: usageCounter(change.typeClass),
    day: londonDate(deps.clock.now()),
  });
}
