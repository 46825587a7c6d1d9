import { randomUUID } from 'node:crypto';
import { HttpProblem, problems, type Knex } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { subcontractorsCsv } from '../documents/csv-export.js';
import {
  SubcontractorStore,
  type Address,
  type IdentityHashColumns,
  type SubcontractorChanges,
  type SubcontractorFilters,
  type SubcontractorRecord,
  type SubcontractorType,
  type VerificationChanges,
  type VerificationStatus,
} from '../db/subcontractors.store.js';
import {
  EXPORT_ROWS_MAX,
  exportTooLarge,
  IDENTITY_KINDS,
  londonDate,
  maskNino,
  missingDetails,
  maskUtr,
  portalAccessEnded,
  validateNino,
  validateSubcontractorInput,
  validateUtr,
  verificationRate,
  type IdentityKind,
  type SubcontractorContactFields,
} from '../domain/index.js';
import type { Actor } from '../events/audit.js';
import { assertValid, type BatchResult } from './problems.js';
import { assertNoDuplicate, guardingIdentity } from './subcontractor-identity.js';

export const EMPTY_ADDRESS: Address = {
  line1: '',
  line2: '',
  city: '',
  county: '',
  postcode: '',
  country: 'GB',
};

export interface VerificationInput {
  status: string;
  rate?: number | undefined;
  method: 'online' | 'phone' | 'letter' | 'auto';
  reference: string;
  notes: string;
  verifiedDate?: string | null | undefined;
}

/** A subcontractor as the create and edit forms send it. */
export interface SubcontractorInput extends SubcontractorContactFields {
  type: string;
  name: string;
  utr?: string | undefined;
  nino?: string | undefined;
  verification?: VerificationInput | undefined;
}

/** The cause a bulk verification that fails as a whole answers with (cis.md section 8, verbatim). */
const BATCH_VERIFICATION_FAILED = 'Batch verification update failed';

const verifyScopeMissing = () => problems.forbidden('This requires the cis.sub.verify permission.');

/**
 * The field errors of a verification (cis.md section 5: 'Invalid verification status', the rate matching the
 * status, the method, HMRC's verification number format, no identifiers in the notes), keyed `verification.<field>`.
 */
export function verificationErrors(input: VerificationInput): Record<string, string> {
  const errors = validateSubcontractorInput({ type: 'individual', name: 'xx', verification: input }, 'edit');
  return Object.fromEntries(Object.entries(errors).filter(([field]) => field.startsWith('verification')));
}

/**
 * What a recorded verification writes, for one subcontractor or a batch: the status sets the rate (gross 0,
 * standard 20, higher 30), the reference is stored without spaces in capitals, the date defaults to today in London.
 */
function verificationChanges(input: VerificationInput, userId: string, today: Date): VerificationChanges {
  const status = input.status as VerificationStatus;
  return {
    verificationStatus: status,
    verificationRate: verificationRate(status),
    verificationMethod: input.method,
    verificationReference: input.reference.replace(/\s+/g, '').toUpperCase(),
    verificationNotes: input.notes,
    verifiedDate: input.verifiedDate ?? londonDate(today),
    verifiedBy: userId,
  };
}

/** What a create or edit writes (identifiers sealed, masked copies beside them). */
function changesOf(
  deps: CisDeps,
  input: SubcontractorInput,
  existing?: SubcontractorRecord,
): SubcontractorChanges {
  const utr = (input.utr ?? '').replace(/\s+/g, '');
  const ninoInput = (input.nino ?? '').replace(/\s+/g, '');
  const utrNormalised = utr ? validateUtr(utr).normalised : '';
  const nino = input.type === 'individual' && ninoInput ? validateNino(ninoInput).normalised : '';
  const status = (input.verification?.status ??
    existing?.verificationStatus ??
    'standard') as VerificationStatus;
  const registered = { ...EMPTY_ADDRESS, ...input.registeredAddress };
  return {
    type: input.type as SubcontractorType,
    name: input.name.trim(),
    // Blank on edit keeps the stored value (cis.md section 5).
    ...(utrNormalised ? { utrEnc: deps.sealed.seal(utrNormalised), utrMasked: maskUtr(utrNormalised) } : {}),
    ...(input.type !== 'individual'
      ? { ninoEnc: null, ninoMasked: '' }
      : nino
        ? { ninoEnc: deps.sealed.seal(nino), ninoMasked: maskNino(nino) }
        : input.nino !== undefined && existing === undefined
          ? { ninoEnc: null, ninoMasked: '' }
          : {}),
    companyNumber: input.type === 'company' ? input.companyNumber.replace(/\s+/g, '').toUpperCase() : '',
    vatNumber: input.vatNumber.replace(/\s+/g, '').toUpperCase(),
    // The VAT number's check digits are computed (not enforced) when it is saved (cis.md section 5).
    vatCheckedAt: input.vatNumber.trim() ? deps.clock.now() : null,
    email: input.email.trim(),
    phone: input.phone.trim(),
    mobile: input.mobile.trim(),
    registeredAddress: registered,
    tradingAddress: input.tradingAddressSameAsRegistered
      ? registered
      : { ...EMPTY_ADDRESS, ...input.tradingAddress },
    tradingAddressSameAsRegistered: input.tradingAddressSameAsRegistered,
    gdprConsent: input.gdprConsent,
    marketingConsent: input.marketingConsent,
    portalAccess: input.portalAccess,
    active: input.active,
    verificationStatus: status,
    verificationRate: verificationRate(status),
    ...(input.verification
      ? {
          verificationMethod: input.verification.method,
          verificationReference: input.verification.reference.replace(/\s+/g, '').toUpperCase(),
          verificationNotes: input.verification.notes,
          verifiedDate: input.verification.verifiedDate ?? null,
        }
      : {}),
  };
}

/**
 * The identifier hashes a create or edit leaves the record with (as `changesOf` leaves its sealed identifiers: a
 * blank UTR or NINO on edit keeps the stored one), and the kinds to check for duplicates: every one on create,
 * on edit those that change, and every one when an archived record comes back (ADR 0039).
 */
function identityOf(
  deps: CisDeps,
  tenantId: string,
  input: SubcontractorInput,
  existing?: SubcontractorRecord,
): { hashes: IdentityHashColumns; check: IdentityKind[]; knownDuplicate: boolean } {
  const given = deps.identityHashes.hashes(tenantId, {
    utr: input.utr ? validateUtr(input.utr).normalised : '',
    nino: input.type === 'individual' && input.nino ? validateNino(input.nino).normalised : '',
    companyNumber: input.type === 'company' ? input.companyNumber : '',
  });
  const hashes: IdentityHashColumns = {
    utr: given.utr ?? existing?.utrHash ?? null,
    nino: input.type !== 'individual' ? null : (given.nino ?? (existing ? existing.ninoHash : null)),
    crn: given.crn,
  };
  if (!existing) return { hashes, check: IDENTITY_KINDS, knownDuplicate: false };
  const returning = existing.archived && input.active;
  const check = IDENTITY_KINDS.filter((kind) => returning || hashes[kind] !== existing[`${kind}Hash`]);
  // A record that shared an identifier before the hashes existed stays out of the unique indexes while an
  // identifier it still holds has not been checked.
  const knownDuplicate =
    existing.knownDuplicate && IDENTITY_KINDS.some((kind) => hashes[kind] && !check.includes(kind));
  return { hashes, check, knownDuplicate };
}

async function requireSubcontractor(
  subcontractors: SubcontractorStore,
  id: string,
): Promise<SubcontractorRecord> {
  const row = await subcontractors.find(id);
  if (!row) throw problems.notFound('Subcontractor not found');
  return row;
}

/** A page of the list (SUBCONTRACTOR_PAGE_MAX at most: every one, for a real contractor) with the stat cards. */
export function listSubcontractors(
  deps: CisDeps,
  tenantId: string,
  query: SubcontractorFilters & { page: number; pageSize: number },
) {
  return deps.inTenant(tenantId, async (trx) => {
    const subcontractors = new SubcontractorStore(trx);
    const rows = await subcontractors.list(query, {
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    const total =
      query.page === 1 && rows.length < query.pageSize ? rows.length : await subcontractors.count(query);
    return { rows, total, stats: await subcontractors.stats() };
  });
}

/** The list as CSV (identifiers masked), with an export audit entry; more than EXPORT_ROWS_MAX is refused. */
export function exportSubcontractors(deps: CisDeps, actor: Actor, query: SubcontractorFilters) {
  return deps.inTenant(actor.tenantId, async (trx) => {
    const rows = await new SubcontractorStore(trx).list(query, { limit: EXPORT_ROWS_MAX + 1, offset: 0 });
    if (rows.length > EXPORT_ROWS_MAX)
      throw new HttpProblem(422, 'too_many_rows', exportTooLarge('subcontractors'));
    const built = subcontractorsCsv(
      rows.map((row) => ({
        name: row.name,
        type: row.type,
        utrMasked: row.utrMasked,
        ninoMasked: row.ninoMasked,
        email: row.email,
        phone: row.phone,
        active: row.active,
        archived: row.archived,
        verification: { rate: row.verificationRate },
      })),
      deps.clock.now(),
    );
    await deps.audit.write(trx, actor, 'cis.export.subcontractors', {
      targetType: 'export',
      summary: `${rows.length} subcontractors exported to CSV`,
      details: { format: 'csv', count: rows.length },
    });
    return { ...built, count: rows.length };
  });
}

/**
 * One subcontractor; with `unmask`, its UTR and NINO opened (the caller must hold cis.pii.unmask), audited as
 * cis.pii.unmasked with the subcontractor's id (ADR 0029).
 */
export function readSubcontractor(
  deps: CisDeps,
  reader: Actor,
  id: string,
  unmask: { allowed: boolean } | undefined,
): Promise<{ row: SubcontractorRecord; clear?: { utr: string; nino: string } }> {
  return deps.inTenant(reader.tenantId, async (trx) => {
    const row = await requireSubcontractor(new SubcontractorStore(trx), id);
    if (!unmask) return { row };
    if (!unmask.allowed) throw problems.forbidden('This requires the cis.pii.unmask permission.');
    const clear = { utr: deps.sealed.open(row.utrEnc), nino: deps.sealed.open(row.ninoEnc) };
    await deps.audit.write(trx, reader, 'cis.pii.unmasked', {
      targetType: 'subcontractor',
      targetId: row.id,
      summary: `Identifiers of ${row.name} shown unmasked`,
      details: { fields: 'utr,nino' },
    });
    return { row, clear };
  });
}

/** Creates a subcontractor (every rule of cis.md section 5; UTR and NINO sealed). */
export function createSubcontractor(
  deps: CisDeps,
  actor: Actor & { canVerify: boolean },
  input: SubcontractorInput,
): Promise<SubcontractorRecord> {
  assertValid(validateSubcontractorInput(input, 'create'));
  if (input.verification && !actor.canVerify && input.verification.status !== 'standard')
    throw verifyScopeMissing();
  const identity = identityOf(deps, actor.tenantId, input);
  return guardingIdentity(deps, actor.tenantId, identity.hashes, undefined, () =>
    deps.inTenant(actor.tenantId, async (trx) => {
      const id = randomUUID();
      if (input.active) await assertNoDuplicate(trx, identity.hashes);
      const row = await new SubcontractorStore(trx).insert({
        id,
        tenantId: actor.tenantId,
        ...changesOf(deps, input),
        utrHash: identity.hashes.utr,
        ninoHash: identity.hashes.nino,
        crnHash: identity.hashes.crn,
        archived: !input.active,
        gdprConsentDate: input.gdprConsent ? deps.clock.now() : null,
        verifiedBy: input.verification ? actor.userId : null,
        createdBy: actor.userId,
        updatedBy: actor.userId,
      });
      await deps.audit.write(trx, actor, 'cis.subcontractor.created', {
        targetType: 'subcontractor',
        targetId: id,
        summary: `Subcontractor ${row.name} added`,
        details: { type: row.type, rate: row.verificationRate },
      });
      return row;
    }),
  );
}

/** Edits a subcontractor (a blank UTR keeps the stored one; a changed verification needs cis.sub.verify). */
export function updateSubcontractor(
  deps: CisDeps,
  actor: Actor & { canVerify: boolean },
  id: string,
  input: SubcontractorInput,
): Promise<SubcontractorRecord> {
  assertValid(validateSubcontractorInput(input, 'edit'));
  const hashes: IdentityHashColumns = { utr: null, nino: null, crn: null };
  return guardingIdentity(deps, actor.tenantId, hashes, id, () =>
    deps.inTenant(actor.tenantId, async (trx) => {
      const subcontractors = new SubcontractorStore(trx);
      const existing = await requireSubcontractor(subcontractors, id);
      const identity = identityOf(deps, actor.tenantId, input, existing);
      Object.assign(hashes, identity.hashes);
      if (input.active)
        await assertNoDuplicate(trx, identity.hashes, { exceptId: id, kinds: identity.check });
      const registered = { ...EMPTY_ADDRESS, ...input.registeredAddress };
      const verificationChanged =
        input.verification !== undefined &&
        (input.verification.status !== existing.verificationStatus ||
          input.verification.reference.toUpperCase() !== existing.verificationReference);
      if (verificationChanged && !actor.canVerify) throw verifyScopeMissing();
      const row = await subcontractors.update(
        id,
        {
          ...changesOf(deps, input, existing),
          utrHash: identity.hashes.utr,
          ninoHash: identity.hashes.nino,
          crnHash: identity.hashes.crn,
          knownDuplicate: identity.knownDuplicate,
          // An invited subcontractor's details stay incomplete until its address and consent are filled in.
          detailsIncomplete:
            existing.detailsIncomplete &&
            missingDetails({ registeredAddress: registered, gdprConsent: input.gdprConsent }).length > 0,
          archived: input.active ? false : existing.archived || !input.active,
          gdprConsentDate:
            input.gdprConsent && !existing.gdprConsent ? deps.clock.now() : existing.gdprConsentDate,
          ...(verificationChanged ? { verifiedBy: actor.userId } : {}),
        },
        actor.userId,
      );
      if (!row) throw problems.notFound('Subcontractor not found');
      await deps.audit.write(trx, actor, 'cis.subcontractor.updated', {
        targetType: 'subcontractor',
        targetId: row.id,
        summary: `Subcontractor ${row.name} updated`,
      });
      if (portalAccessEnded(existing, row)) {
        // Identity ends the subcontractor's portal sessions and unused links on this event; the portal routes
        // refuse at once (commands/portal.ts).
        await deps.audit.write(trx, actor, 'cis.subcontractor.portal_access_ended', {
          targetType: 'subcontractor',
          targetId: row.id,
          targetIds: [row.id],
          succeeded: 1,
          summary: `Subcontractor ${row.name}: portal access ended`,
          details: { reason: row.archived ? 'archived' : 'portal access turned off' },
        });
      }
      if (verificationChanged) {
        await deps.audit.write(trx, actor, 'cis.subcontractor.verified', {
          targetType: 'subcontractor',
          targetId: row.id,
          summary: `Subcontractor ${row.name} verified at ${row.verificationRate}%`,
          details: { status: row.verificationStatus, rate: row.verificationRate },
        });
      }
      return row;
    }),
  );
}

/** The entry a recorded verification writes for each subcontractor (no identifiers: status, rate, method). */
const auditVerified = (
  deps: CisDeps,
  trx: Knex.Transaction,
  actor: Actor,
  row: SubcontractorRecord,
  method: string,
) =>
  deps.audit.write(trx, actor, 'cis.subcontractor.verified', {
    targetType: 'subcontractor',
    targetId: row.id,
    summary: `Subcontractor ${row.name} verified at ${row.verificationRate}%`,
    details: { status: row.verificationStatus, rate: row.verificationRate, method },
  });

/** Records a verification: the status sets the rate (gross 0, standard 20, higher 30). */
export function verifySubcontractor(
  deps: CisDeps,
  actor: Actor,
  id: string,
  verification: VerificationInput,
): Promise<SubcontractorRecord> {
  assertValid(verificationErrors(verification));
  return deps.inTenant(actor.tenantId, async (trx) => {
    const subcontractors = new SubcontractorStore(trx);
    await requireSubcontractor(subcontractors, id);
    const [row] = await subcontractors.verify(
      [id],
      verificationChanges(verification, actor.userId, deps.clock.now()),
    );
    if (!row) throw problems.notFound('Subcontractor not found');
    await auditVerified(deps, trx, actor, row, verification.method);
    return row;
  });
}

/**
 * Records one verification for many subcontractors in one transaction (the same columns and entry as the single
 * update): unknown, deleted and archived ones come back in `failed`; one cis.subcontractor.bulk.verify entry
 * follows. A batch that fails as a whole (the database refusing the transaction) changes nothing and answers 500
 * with the spec's cause 'Batch verification update failed', the error logged.
 */
export async function verifySubcontractors(
  deps: CisDeps,
  actor: Actor,
  ids: string[],
  verification: VerificationInput,
): Promise<BatchResult> {
  assertValid(verificationErrors(verification));
  const unique = [...new Set(ids)];
  try {
    return await deps.inTenant(actor.tenantId, async (trx) => {
      const subcontractors = new SubcontractorStore(trx);
      const rows = await subcontractors.lockAny(unique);
      const found = new Map(rows.map((row) => [row.id, row]));
      const failed: BatchResult['failed'] = [];
      const targets: string[] = [];
      // In the order asked for.
      for (const id of unique) {
        const row = found.get(id);
        if (!row) failed.push({ id, error: 'Subcontractor not found' });
        else if (row.deletedAt) failed.push({ id, error: 'Deleted subcontractors cannot be verified' });
        else if (row.archived) failed.push({ id, error: 'Archived subcontractors cannot be verified' });
        else targets.push(id);
      }
      const saved =
        targets.length > 0
          ? await subcontractors.verify(
              targets,
              verificationChanges(verification, actor.userId, deps.clock.now()),
            )
          : [];
      const byId = new Map(saved.map((row) => [row.id, row]));
      const changed = targets.flatMap((id) => {
        const row = byId.get(id);
        return row ? [row] : [];
      });
      for (const row of changed) await auditVerified(deps, trx, actor, row, verification.method);
      const status = verification.status as VerificationStatus;
      const rate = verificationRate(status);
      await deps.audit.write(trx, actor, 'cis.subcontractor.bulk.verify', {
        targetType: 'subcontractor',
        targetIds: unique,
        succeeded: changed.length,
        failed: failed.length,
        summary: `${changed.length} subcontractors verified at ${rate}%${failed.length ? `, ${failed.length} failed` : ''}`,
        details: { status, rate, method: verification.method },
      });
      return { succeeded: changed.map((row) => row.id), failed };
    });
  } catch (error) {
    if (error instanceof HttpProblem) throw error;
    deps.logger.error(
      { err: error, action: 'verify', count: unique.length, tenantId: actor.tenantId },
      BATCH_VERIFICATION_FAILED,
    );
    throw new HttpProblem(500, 'batch_failed', BATCH_VERIFICATION_FAILED);
  }
}

/** Archives or soft-deletes subcontractors (single or bulk; one audit entry, a bulk one for several ids). */
export function retireSubcontractors(
  deps: CisDeps,
  actor: Actor,
  ids: string[],
  action: 'archive' | 'delete',
): Promise<BatchResult> {
  return deps.inTenant(actor.tenantId, async (trx) => {
    const subcontractors = new SubcontractorStore(trx);
    const rows = await subcontractors.lockLive(ids);
    const found = new Map(rows.map((row) => [row.id, row]));
    const failed = ids.filter((id) => !found.has(id)).map((id) => ({ id, error: 'Subcontractor not found' }));
    // In the order asked for.
    const targets = ids.flatMap((id) => {
      const row = found.get(id);
      return row && (action === 'delete' || !row.archived) ? [row] : [];
    });
    for (const row of rows)
      if (action === 'archive' && row.archived) failed.push({ id: row.id, error: 'Already archived' });
    const succeeded = targets.map((row) => row.id);
    if (succeeded.length > 0) {
      if (action === 'archive') await subcontractors.archive(succeeded, actor.userId);
      else await subcontractors.softDelete(succeeded, actor.userId);
    }
    const single = ids.length === 1;
    const done = action === 'archive' ? 'archived' : 'deleted';
    await deps.audit.write(
      trx,
      actor,
      single
        ? action === 'archive'
          ? 'cis.subcontractor.archived'
          : 'cis.subcontractor.deleted'
        : action === 'archive'
          ? 'cis.subcontractor.bulk.archive'
          : 'cis.subcontractor.bulk.delete',
      {
        targetType: 'subcontractor',
        ...(single ? { targetId: ids[0] } : {}),
        targetIds: ids,
        succeeded: succeeded.length,
        failed: failed.length,
        summary: single
          ? `Subcontractor ${found.get(ids[0] ?? '')?.name ?? ''} ${done}`
          : `${succeeded.length} subcontractors ${done}`,
      },
    );
    return { succeeded, failed };
  });
}
