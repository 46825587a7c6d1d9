import { HttpProblem, problems, type Knex } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { InvoiceStore } from '../db/invoices.store.js';
import { StatementStore } from '../db/statements.store.js';
import {
  IDENTITY_INDEXES,
  IdentityHashBacklog,
  SubcontractorStore,
  type IdentityHashColumns,
  type SubcontractorRecord,
} from '../db/subcontractors.store.js';
import { duplicateMessage, IDENTITY_KEY_LABELS, IDENTITY_KINDS, type IdentityKind } from '../domain/index.js';
import type { Actor } from '../events/audit.js';
import { refused } from './problems.js';

/** Where each kind of identifier sits in the create and edit forms (the field a duplicate is shown under). */
const FORM_FIELD: Record<IdentityKind, string> = { utr: 'utr', nino: 'nino', crn: 'companyNumber' };

/**
 * A duplicate refused: 409 with the message naming the record that holds the identifier, that record's id and name
 * (`existing`, for the link to it) and the field it is about.
 */
export function duplicateProblem(kind: IdentityKind, existing: { id: string; name: string }): HttpProblem {
  const message = duplicateMessage(kind, existing.name);
  return new HttpProblem(
    409,
    'duplicate_subcontractor',
    message,
    [{ field: `body.${FORM_FIELD[kind]}`, message }],
    { existing: { id: existing.id, name: existing.name }, identifier: kind },
  );
}

/** The hashes a subcontractor's clear identifiers give in its tenant. */
export function identityHashesOf(
  deps: Pick<CisDeps, 'identityHashes'>,
  tenantId: string,
  identifiers: { utr?: string; nino?: string; companyNumber?: string },
): IdentityHashColumns {
  return deps.identityHashes.hashes(tenantId, identifiers);
}

/**
 * Refuses the identifiers `hashes` holds that another live, not archived subcontractor (not `exceptId`) already
 * holds, in the order UTR, NINO, company number. Only the kinds in `kinds` are looked at (an edit checks the
 * identifiers it changes).
 */
export async function assertNoDuplicate(
  trx: Knex.Transaction,
  hashes: IdentityHashColumns,
  options: { exceptId?: string; kinds?: IdentityKind[] } = {},
): Promise<void> {
  const store = new SubcontractorStore(trx);
  for (const kind of options.kinds ?? IDENTITY_KINDS) {
    const hash = hashes[kind];
    if (!hash) continue;
    const holder = await store.holderOf(kind, hash, options.exceptId);
    if (holder) throw duplicateProblem(kind, holder);
  }
}

/** The partial unique index a PostgreSQL unique violation names, when it is one of the identifier indexes. */
function violatedIdentity(error: unknown): IdentityKind | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  if (code !== '23505' || typeof constraint !== 'string') return undefined;
  return IDENTITY_INDEXES[constraint];
}

/**
 * `work` (a create or an edit) with the unique indexes' refusal answered like the check before it: when two
 * writes race past the check, the index refuses the second, and the record that won is named the same way.
 */
export async function guardingIdentity<T>(
  deps: CisDeps,
  tenantId: string,
  hashes: IdentityHashColumns,
  exceptId: string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const kind = violatedIdentity(error);
    if (!kind) throw error;
    const hash = hashes[kind];
    const holder = hash
      ? await deps.inTenant(tenantId, (trx) => new SubcontractorStore(trx).holderOf(kind, hash, exceptId))
      : undefined;
    throw holder
      ? duplicateProblem(kind, holder)
      : refused(
          `Another subcontractor already has this ${IDENTITY_KEY_LABELS[kind]}`,
          'duplicate_subcontractor',
        );
  }
}

/**
 * Fills in the identifier hashes of the subcontractors stored before migration 008 (ADR 0039): run when cis starts,
 * where the hash key is. Each tenant in the backlog is done in one transaction, its subcontractors locked against
 * writes: every hash cleared, then filled in from the oldest record on; a live record sharing an identifier with an
 * earlier live one is marked `known_duplicate` (kept out of the unique indexes until merged). Running it again
 * gives the same hashes. Answers how many subcontractors were hashed.
 */
export async function fillIdentityHashes(
  deps: Pick<CisDeps, 'db' | 'sealed' | 'inTenant' | 'identityHashes'>,
): Promise<number> {
  const backlog = new IdentityHashBacklog(deps.db);
  let filled = 0;
  for (const tenantId of await backlog.tenants()) {
    filled += await deps.inTenant(tenantId, async (trx) => {
      const store = new SubcontractorStore(trx);
      const rows = await store.lockAllForHashing();
      await store.clearIdentityHashes();
      const claimed = new Set<string>();
      for (const row of rows) {
        const hashes = identityHashesOf(deps, tenantId, {
          utr: deps.sealed.open(row.utrEnc),
          nino: deps.sealed.open(row.ninoEnc),
          companyNumber: row.companyNumber,
        });
        const live = !row.deletedAt && !row.archived;
        const keys = IDENTITY_KINDS.flatMap((kind) => {
          const hash = hashes[kind];
          return hash ? [`${kind}:${hash}`] : [];
        });
        const duplicate = live && keys.some((key) => claimed.has(key));
        if (live && !duplicate) for (const key of keys) claimed.add(key);
        await store.setIdentityHashes(row.id, hashes, duplicate);
      }
      await backlog.done(trx, tenantId);
      return rows.length;
    });
  }
  return filled;
}

/** A set of live subcontractors sharing an identifier (the oldest first). */
export interface DuplicateGroup {
  identifier: IdentityKind;
  subcontractors: SubcontractorRecord[];
}

/** The live subcontractors of the tenant that share a UTR, NINO or company number, by identifier. */
export function findDuplicates(deps: CisDeps, tenantId: string): Promise<DuplicateGroup[]> {
  return deps.inTenant(tenantId, async (trx) => {
    const rows = await new SubcontractorStore(trx).liveWithIdentity();
    const groups = new Map<string, DuplicateGroup>();
    for (const row of rows) {
      for (const kind of IDENTITY_KINDS) {
        const hash = row[`${kind}Hash`];
        if (!hash) continue;
        const key = `${kind}:${hash}`;
        const group = groups.get(key) ?? { identifier: kind, subcontractors: [] };
        group.subcontractors.push(row);
        groups.set(key, group);
      }
    }
    // One group per set of records: two records sharing a UTR and a NINO are one duplicate, listed under the UTR.
    const seen = new Set<string>();
    return [...groups.values()]
      .filter((group) => group.subcontractors.length > 1)
      .filter((group) => {
        const members = group.subcontractors.map((row) => row.id).join(',');
        if (seen.has(members)) return false;
        seen.add(members);
        return true;
      });
  });
}

const NOT_THE_SAME_PERSON =
  'These records share no UTR, National Insurance number, company number or email address: only records of the same person can be merged';

/** Whether two records name the same person: an identifier hash or the email in common. */
function samePerson(a: SubcontractorRecord, b: SubcontractorRecord): boolean {
  const shared = IDENTITY_KINDS.some((kind) => {
    const hash = a[`${kind}Hash`];
    return hash !== null && hash === b[`${kind}Hash`];
  });
  const email = a.email.trim().toLowerCase();
  return shared || (email !== '' && email === b.email.trim().toLowerCase());
}

export interface MergeOutcome {
  kept: SubcontractorRecord;
  merged: SubcontractorRecord;
  invoices: number;
  statements: number;
}

/**
 * Merges a duplicate into the record kept: the duplicate's invoices and statements move to the kept record (so the
 * CIS300 has one line for the person), its portal access too (the kept record is granted it; the duplicate's
 * sessions end with its access), and the duplicate is archived with a note naming the record kept. Audited as
 * cis.subcontractor.merged on both records.
 */
export function mergeSubcontractors(
  deps: CisDeps,
  actor: Actor,
  keepId: string,
  mergeId: string,
): Promise<MergeOutcome> {
  if (keepId === mergeId) throw problems.badRequest('Choose two different subcontractors to merge');
  return deps.inTenant(actor.tenantId, async (trx) => {
    const store = new SubcontractorStore(trx);
    const locked = await store.lockLive([keepId, mergeId]);
    const keep = locked.find((row) => row.id === keepId);
    const merge = locked.find((row) => row.id === mergeId);
    if (!keep || !merge) throw problems.notFound('Subcontractor not found');
    if (keep.archived)
      throw refused('The record to keep is archived: restore it first, or keep the other one');
    if (merge.archived) throw refused(`${merge.name} is already archived`);
    if (!samePerson(keep, merge)) throw refused(NOT_THE_SAME_PERSON);
    const invoiceStore = new InvoiceStore(trx);
    const shared = await invoiceStore.sharedNumbers(merge.id, keep.id);
    if (shared.length > 0)
      throw refused(
        `Both records have an invoice numbered ${shared.join(', ')}: change one of the numbers before merging`,
      );
    const invoices = await invoiceStore.moveToSubcontractor(merge.id, keep);
    const statements = await new StatementStore(trx).moveToSubcontractor(merge.id, keep);
    const note = `Merged into ${keep.name} (duplicate record)`;
    await store.markMerged(merge.id, keep.id, note, actor.userId);
    // The kept record takes the portal access and any contact detail it lacks.
    const portalAccess = keep.portalAccess || merge.portalAccess;
    const updated = await store.update(
      keep.id,
      {
        portalAccess,
        ...(keep.email ? {} : { email: merge.email }),
        ...(keep.phone ? {} : { phone: merge.phone }),
        ...(keep.mobile ? {} : { mobile: merge.mobile }),
      },
      actor.userId,
    );
    if (!updated) throw problems.notFound('Subcontractor not found');
    // Out of the unique indexes only while another live record still shares an identifier with it.
    if (updated.knownDuplicate && !(await store.sharesIdentity(updated)))
      await store.setIdentityHashes(
        updated.id,
        { utr: updated.utrHash, nino: updated.ninoHash, crn: updated.crnHash },
        false,
      );
    const kept = (await store.find(keep.id)) ?? updated;
    const merged = (await store.findAny(merge.id)) ?? merge;
    await deps.audit.write(trx, actor, 'cis.subcontractor.merged', {
      targetType: 'subcontractor',
      targetId: kept.id,
      targetIds: [kept.id, merged.id],
      summary: `Subcontractor ${merged.name} merged into ${kept.name}: ${invoices} invoices and ${statements} statements moved`,
      details: { keptId: kept.id, mergedId: merged.id, invoices, statements, portalAccess },
    });
    if (merge.portalAccess) {
      // Identity ends the duplicate's portal sessions and unused links on this event (commands/portal.ts).
      await deps.audit.write(trx, actor, 'cis.subcontractor.portal_access_ended', {
        targetType: 'subcontractor',
        targetId: merged.id,
        targetIds: [merged.id],
        succeeded: 1,
        summary: `Subcontractor ${merged.name}: portal access ended`,
        details: { reason: 'merged' },
      });
    }
    return { kept, merged, invoices, statements };
  });
}
