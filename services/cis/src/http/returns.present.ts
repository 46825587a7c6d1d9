import type { z } from 'zod';
import type { ReturnRecord } from '../db/returns.store.js';
import { returnDisplayStatus } from '../domain/index.js';
import { iso } from '../domain/timestamps.js';
import { timestamp } from './http-helpers.js';
import type { returnSchema } from './returns.schemas.js';

/** A return as the API shows it; `names` (identity's, for the reader) gives the submitter's name when known. */
export const presentReturn = (
  row: ReturnRecord,
  names: ReadonlyMap<string, string> = new Map(),
): z.input<typeof returnSchema> => ({
  id: row.id,
  taxMonth: row.taxMonth,
  status: row.status,
  displayStatus: returnDisplayStatus(row),
  locked: row.locked,
  lockedAt: iso(row.lockedAt),
  period: { ...row.period, taxMonth: row.taxMonth },
  deadlines: row.deadlines,
  totals: row.totals,
  lines: row.lines,
  issues: row.issues,
  submissionRef: row.submissionRef,
  submittedAt: iso(row.submittedAt),
  submittedBy: row.submittedBy,
  submittedByName: row.submittedBy ? (names.get(row.submittedBy) ?? null) : null,
  amendmentOf: row.amendmentOf,
  compiledBy: row.compiledBy,
  declarations: row.declarations,
  hasCis300: row.cis300XmlEnc !== null,
  createdAt: timestamp(row.createdAt),
  updatedAt: timestamp(row.updatedAt),
});
