import { randomUUID } from 'node:crypto';
import { ApiRouter, HttpProblem, problems, type Knex, type RequestContext } from '@workspace/kit';
import { z } from 'zod';
import type { CisContext } from '../context.js';
import { subcontractorsCsv } from '../documents/csv-export.js';
import {
  londonDate,
  maskNino,
  maskUtr,
  validateNino,
  validateSubcontractorInput,
  validateUtr,
  validateVatNumber,
  verificationRate,
} from '../domain/index.js';
import {
  assertValid,
  batchResult,
  can,
  dateOnly,
  idParam,
  idsBody,
  iso,
  looseObject,
  sendCsv,
  type BatchResult,
} from './common.js';

export interface SubcontractorRow {
  id: string;
  tenant_id: string;
  type: 'individual' | 'company' | 'partnership';
  name: string;
  utr_enc: string | null;
  utr_masked: string;
  nino_enc: string | null;
  nino_masked: string;
  company_number: string;
  vat_number: string;
  vat_checked_at: Date | null;
  email: string;
  phone: string;
  mobile: string;
  registered_address: Address;
  trading_address: Address;
  trading_address_same_as_registered: boolean;
  gdpr_consent: boolean;
  gdpr_consent_date: Date | null;
  marketing_consent: boolean;
  portal_access: boolean;
  active: boolean;
  archived: boolean;
  verification_status: 'gross' | 'standard' | 'higher';
  verification_rate: 0 | 20 | 30;
  verification_method: string;
  verification_reference: string;
  verification_notes: string;
  verified_date: string | null;
  verified_by: string | null;
  created_at: Date;
  updated_at: Date;
  created_by: string;
  updated_by: string;
  deleted_at: Date | null;
}

const address = z.object({
  line1: z.string().max(200).default(''),
  line2: z.string().max(200).default(''),
  city: z.string().max(100).default(''),
  county: z.string().max(100).default(''),
  postcode: z.string().max(20).default(''),
  country: z.enum(['GB', 'NI']).default('GB'),
});
type Address = z.infer<typeof address>;
const emptyAddress: Address = { line1: '', line2: '', city: '', county: '', postcode: '', country: 'GB' };

const verificationInput = z.object({
  status: z.string().max(20),
  rate: z.number().int().optional(),
  method: z.enum(['online', 'phone', 'letter', 'auto']).default('online'),
  reference: z.string().max(20).default(''),
  notes: z.string().max(1000).default(''),
  verifiedDate: z.iso.date().nullable().optional(),
});
type VerificationInput = z.infer<typeof verificationInput>;

/** A verification for many subcontractors at once (cis.md section 7: update verification is a batch write). */
const bulkVerificationInput = z.object({
  ids: z.array(z.uuid()).min(1).max(1_000),
  verification: verificationInput,
});

/** The cause a bulk verification that fails as a whole answers with (cis.md section 8, verbatim). */
const BATCH_VERIFICATION_FAILED = 'Batch verification update failed';

/**
 * The field errors of a verification (cis.md section 5: 'Invalid verification status', the rate matching the
 * status, the method, HMRC's verification number format, no identifiers in the notes), keyed `verification.<field>`.
 */
function verificationErrors(input: VerificationInput): Record<string, string> {
  const errors = validateSubcontractorInput({ type: 'individual', name: 'xx', verification: input }, 'edit');
  return Object.fromEntries(Object.entries(errors).filter(([field]) => field.startsWith('verification')));
}

/**
 * The columns a recorded verification writes, for one subcontractor or a batch: the status sets the rate (gross 0,
 * standard 20, higher 30), the reference is stored without spaces in capitals, the date defaults to today in London.
 */
function verificationColumns(trx: Knex.Transaction, input: VerificationInput, userId: string) {
  const status = input.status as 'gross' | 'standard' | 'higher';
  return {
    verification_status: status,
    verification_rate: verificationRate(status),
    verification_method: input.method,
    verification_reference: input.reference.replace(/\s+/g, '').toUpperCase(),
    verification_notes: input.notes,
    verified_date: input.verifiedDate ?? londonDate(new Date()),
    verified_by: userId,
    updated_at: trx.fn.now(),
    updated_by: userId,
  };
}

const subcontractorInput = z.object({
  type: z.string().max(20),
  name: z.string().max(200),
  utr: z.string().max(20).optional(),
  nino: z.string().max(20).optional(),
  companyNumber: z.string().max(20).default(''),
  vatNumber: z.string().max(20).default(''),
  email: z.string().max(200).default(''),
  phone: z.string().max(30).default(''),
  mobile: z.string().max(30).default(''),
  registeredAddress: address.default(emptyAddress),
  tradingAddress: address.default(emptyAddress),
  tradingAddressSameAsRegistered: z.boolean().default(true),
  gdprConsent: z.boolean().default(false),
  marketingConsent: z.boolean().default(false),
  portalAccess: z.boolean().default(false),
  active: z.boolean().default(true),
  verification: verificationInput.optional(),
});
type SubcontractorInput = z.infer<typeof subcontractorInput>;

export const subcontractorSchema = looseObject;

export function subcontractorView(row: SubcontractorRow, clear?: { utr: string; nino: string }) {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    utrMasked: row.utr_masked,
    ninoMasked: row.nino_masked,
    ...(clear ? { utr: clear.utr, nino: clear.nino } : {}),
    companyNumber: row.company_number,
    vatNumber: row.vat_number,
    vatCheckedAt: iso(row.vat_checked_at),
    /** HMRC's modulus 97 / 9755 check of the VAT number (null without one): a warning, never a refusal. */
    vatNumberChecksumValid: row.vat_number ? validateVatNumber(row.vat_number).checksumValid : null,
    email: row.email,
    phone: row.phone,
    mobile: row.mobile,
    registeredAddress: { ...emptyAddress, ...row.registered_address },
    tradingAddress: { ...emptyAddress, ...row.trading_address },
    tradingAddressSameAsRegistered: row.trading_address_same_as_registered,
    gdprConsent: row.gdpr_consent,
    gdprConsentDate: iso(row.gdpr_consent_date),
    marketingConsent: row.marketing_consent,
    portalAccess: row.portal_access,
    active: row.active,
    archived: row.archived,
    verification: {
      status: row.verification_status,
      rate: row.verification_rate,
      method: row.verification_method,
      reference: row.verification_reference,
      notes: row.verification_notes,
      verifiedDate: dateOnly(row.verified_date),
      verifiedBy: row.verified_by,
    },
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    createdBy: row.created_by,
    updatedBy: row.updated_by,
  };
}

export async function findSubcontractor(
  trx: Knex.Transaction,
  id: string,
): Promise<SubcontractorRow | undefined> {
  return trx<SubcontractorRow>('subcontractors').where({ id }).whereNull('deleted_at').first();
}

export async function requireSubcontractor(trx: Knex.Transaction, id: string): Promise<SubcontractorRow> {
  const row = await findSubcontractor(trx, id);
  if (!row) throw problems.notFound('Subcontractor not found');
  return row;
}

/** The columns a create or edit writes (identifiers sealed, masked copies beside them). */
function columns(context: CisContext, input: SubcontractorInput, existing?: SubcontractorRow) {
  const utr = (input.utr ?? '').replace(/\s+/g, '');
  const ninoInput = (input.nino ?? '').replace(/\s+/g, '');
  const utrNormalised = utr ? validateUtr(utr).normalised : '';
  const nino = input.type === 'individual' && ninoInput ? validateNino(ninoInput).normalised : '';
  const status = (input.verification?.status ?? existing?.verification_status ?? 'standard') as
    'gross' | 'standard' | 'higher';
  const registered = { ...emptyAddress, ...input.registeredAddress };
  return {
    type: input.type,
    name: input.name.trim(),
    // Blank on edit keeps the stored value (cis.md section 5).
    ...(utrNormalised ? { utr_enc: context.encrypt(utrNormalised), utr_masked: maskUtr(utrNormalised) } : {}),
    ...(input.type !== 'individual'
      ? { nino_enc: null, nino_masked: '' }
      : nino
        ? { nino_enc: context.encrypt(nino), nino_masked: maskNino(nino) }
        : input.nino !== undefined && existing === undefined
          ? { nino_enc: null, nino_masked: '' }
          : {}),
    company_number: input.type === 'company' ? input.companyNumber.replace(/\s+/g, '').toUpperCase() : '',
    vat_number: input.vatNumber.replace(/\s+/g, '').toUpperCase(),
    // The VAT number's check digits are computed (not enforced) when it is saved (cis.md section 5).
    vat_checked_at: input.vatNumber.trim() ? new Date() : null,
    email: input.email.trim(),
    phone: input.phone.trim(),
    mobile: input.mobile.trim(),
    registered_address: JSON.stringify(registered),
    trading_address: JSON.stringify(
      input.tradingAddressSameAsRegistered ? registered : { ...emptyAddress, ...input.tradingAddress },
    ),
    trading_address_same_as_registered: input.tradingAddressSameAsRegistered,
    gdpr_consent: input.gdprConsent,
    marketing_consent: input.marketingConsent,
    portal_access: input.portalAccess,
    active: input.active,
    verification_status: status,
    verification_rate: verificationRate(status),
    ...(input.verification
      ? {
          verification_method: input.verification.method,
          verification_reference: input.verification.reference.replace(/\s+/g, '').toUpperCase(),
          verification_notes: input.verification.notes,
          verified_date: input.verification.verifiedDate ?? null,
        }
      : {}),
  };
}

const listQuery = z.object({
  search: z.string().max(100).optional(),
  status: z.enum(['all', 'active', 'archived']).default('all'),
  type: z.enum(['all', 'individual', 'company', 'partnership']).default('all'),
});

async function listSubcontractors(
  trx: Knex.Transaction,
  query: z.infer<typeof listQuery>,
): Promise<SubcontractorRow[]> {
  let builder = trx<SubcontractorRow>('subcontractors').whereNull('deleted_at');
  if (query.status === 'active') builder = builder.where({ archived: false });
  if (query.status === 'archived') builder = builder.where({ archived: true });
  if (query.type !== 'all') builder = builder.where({ type: query.type });
  const search = query.search?.trim();
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    builder = builder.where((w) => {
      void w.whereILike('name', like).orWhereILike('email', like).orWhereILike('utr_masked', like);
    });
  }
  return builder.orderByRaw('lower(name), id');
}

const inviteInput = z.union([
  z.object({ subcontractorId: z.uuid() }),
  z.object({
    name: z.string().max(200).default(''),
    email: z.string().max(200).default(''),
    type: z.enum(['individual', 'company', 'partnership']).default('individual'),
    utr: z.string().max(10).default(''),
    nino: z.string().max(20).default(''),
    companyNumber: z.string().max(20).default(''),
  }),
]);

const EMAIL_WARNING = 'Email could not be sent. Please share the link manually.';

export function subcontractorRoutes(context: CisContext): ApiRouter {
  const batch = async (
    ctx: RequestContext,
    ids: string[],
    action: 'archive' | 'delete',
  ): Promise<BatchResult> =>
    context.inTenant(ctx.tenantId, async (trx) => {
      const rows = await trx<SubcontractorRow>('subcontractors')
        .whereIn('id', ids)
        .whereNull('deleted_at')
        .forUpdate();
      const found = new Map(rows.map((row) => [row.id, row]));
      const failed = ids
        .filter((id) => !found.has(id))
        .map((id) => ({ id, error: 'Subcontractor not found' }));
      // In the order asked for.
      const targets = ids.flatMap((id) => {
        const row = found.get(id);
        return row && (action === 'delete' || !row.archived) ? [row] : [];
      });
      for (const row of rows)
        if (action === 'archive' && row.archived) failed.push({ id: row.id, error: 'Already archived' });
      const succeeded = targets.map((row) => row.id);
      if (succeeded.length > 0) {
        await trx('subcontractors')
          .whereIn('id', succeeded)
          .update(
            action === 'archive'
              ? { archived: true, active: false, updated_at: trx.fn.now(), updated_by: ctx.userId }
              : {
                  deleted_at: trx.fn.now(),
                  deleted_by: ctx.userId,
                  archived: true,
                  active: false,
                  updated_at: trx.fn.now(),
                  updated_by: ctx.userId,
                },
          );
      }
      const single = ids.length === 1;
      await context.audit(
        trx,
        ctx.tenantId,
        ctx.userId,
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
            ? `Subcontractor ${found.get(ids[0] ?? '')?.name ?? ''} ${action === 'archive' ? 'archived' : 'deleted'}`
            : `${succeeded.length} subcontractors ${action === 'archive' ? 'archived' : 'deleted'}`,
        },
      );
      return { succeeded, failed };
    });

  /** The entry a recorded verification writes for each subcontractor (no identifiers: status, rate, method). */
  const auditVerified = (trx: Knex.Transaction, ctx: RequestContext, row: SubcontractorRow, method: string) =>
    context.audit(trx, ctx.tenantId, ctx.userId, 'cis.subcontractor.verified', {
      targetType: 'subcontractor',
      targetId: row.id,
      summary: `Subcontractor ${row.name} verified at ${row.verification_rate}%`,
      details: { status: row.verification_status, rate: row.verification_rate, method },
    });

  /**
   * Records one verification for many subcontractors in one transaction (the same columns and entry as the single
   * update): unknown, deleted and archived ones come back in `failed`; one cis.subcontractor.bulk.verify entry
   * follows. A batch that fails as a whole (the database refusing the transaction) changes nothing and answers 500
   * with the spec's cause 'Batch verification update failed', the error logged.
   */
  const bulkVerify = async (
    ctx: RequestContext,
    ids: string[],
    verification: VerificationInput,
  ): Promise<BatchResult> => {
    const unique = [...new Set(ids)];
    try {
      return await context.inTenant(ctx.tenantId, async (trx) => {
        const rows = await trx<SubcontractorRow>('subcontractors').whereIn('id', unique).forUpdate();
        const found = new Map(rows.map((row) => [row.id, row]));
        const failed: BatchResult['failed'] = [];
        const targets: string[] = [];
        // In the order asked for.
        for (const id of unique) {
          const row = found.get(id);
          if (!row) failed.push({ id, error: 'Subcontractor not found' });
          else if (row.deleted_at) failed.push({ id, error: 'Deleted subcontractors cannot be verified' });
          else if (row.archived) failed.push({ id, error: 'Archived subcontractors cannot be verified' });
          else targets.push(id);
        }
        const saved =
          targets.length > 0
            ? await trx<SubcontractorRow>('subcontractors')
                .whereIn('id', targets)
                .update(verificationColumns(trx, verification, ctx.userId))
                .returning('*')
            : [];
        const byId = new Map(saved.map((row) => [row.id, row]));
        const changed = targets.flatMap((id) => {
          const row = byId.get(id);
          return row ? [row] : [];
        });
        for (const row of changed) await auditVerified(trx, ctx, row, verification.method);
        const status = verification.status as 'gross' | 'standard' | 'higher';
        const rate = verificationRate(status);
        await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.subcontractor.bulk.verify', {
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
      context.logger.error(
        { err: error, action: 'verify', count: unique.length, tenantId: ctx.tenantId },
        BATCH_VERIFICATION_FAILED,
      );
      throw new HttpProblem(500, 'batch_failed', BATCH_VERIFICATION_FAILED);
    }
  };

  return new ApiRouter()
    .route({
      method: 'get',
      path: '/subcontractors',
      summary: 'Subcontractors (by name; soft-deleted never) with the four stat cards',
      scopes: ['cis.sub.read'],
      request: { query: listQuery },
      responses: {
        200: {
          description: 'The list',
          schema: z.object({
            items: z.array(subcontractorSchema),
            stats: z.object({
              total: z.number(),
              active: z.number(),
              gross: z.number(),
              standard: z.number(),
            }),
          }),
        },
      },
      handler: ({ ctx, query }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          const rows = await listSubcontractors(trx, query);
          const all = await trx<SubcontractorRow>('subcontractors')
            .whereNull('deleted_at')
            .select(
              trx.raw('count(*)::int AS total'),
              trx.raw('count(*) FILTER (WHERE NOT archived)::int AS active'),
              trx.raw(`count(*) FILTER (WHERE verification_status = 'gross' AND NOT archived)::int AS gross`),
              trx.raw(
                `count(*) FILTER (WHERE verification_status = 'standard' AND NOT archived)::int AS standard`,
              ),
            )
            .first();
          const stats = all as unknown as { total: number; active: number; gross: number; standard: number };
          return { items: rows.map((row) => subcontractorView(row)), stats };
        }),
    })
    .route({
      method: 'get',
      path: '/subcontractors/export.csv',
      summary: 'Subcontractors as CSV (cis-subcontractors-{date}.csv; identifiers masked)',
      scopes: ['cis.sub.read', 'cis.io.export'],
      request: { query: listQuery },
      responses: { 200: { description: 'text/csv' } },
      handler: async ({ ctx, query, res }) => {
        const { content, filename, count } = await context.inTenant(ctx.tenantId, async (trx) => {
          const rows = await listSubcontractors(trx, query);
          const built = subcontractorsCsv(rows.map((row) => subcontractorView(row)));
          await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.export.subcontractors', {
            targetType: 'export',
            summary: `${rows.length} subcontractors exported to CSV`,
            details: { format: 'csv', count: rows.length },
          });
          return { ...built, count: rows.length };
        });
        res.set('X-Record-Count', String(count));
        sendCsv(res, filename, content);
      },
    })
    .route({
      method: 'get',
      path: '/subcontractors/:id',
      summary: 'One subcontractor; UTR and NINO in clear only with cis.pii.unmask and unmask=true',
      scopes: ['cis.sub.read'],
      request: { params: idParam, query: z.object({ unmask: z.enum(['true', 'false']).default('false') }) },
      responses: {
        200: { description: 'The subcontractor', schema: z.object({ subcontractor: looseObject }) },
      },
      handler: ({ ctx, params, query }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          const row = await requireSubcontractor(trx, params.id);
          if (query.unmask === 'true') {
            if (!can(ctx, 'cis.pii.unmask'))
              throw problems.forbidden('This requires the cis.pii.unmask permission.');
            return {
              subcontractor: subcontractorView(row, {
                utr: context.decrypt(row.utr_enc),
                nino: context.decrypt(row.nino_enc),
              }),
            };
          }
          return { subcontractor: subcontractorView(row) };
        }),
    })
    .route({
      method: 'post',
      path: '/subcontractors',
      summary: 'Create a subcontractor (every rule of cis.md section 5; UTR and NINO sealed)',
      scopes: ['cis.sub.write'],
      status: 201,
      request: { body: subcontractorInput },
      responses: { 201: { description: 'Created', schema: z.object({ subcontractor: looseObject }) } },
      handler: ({ ctx, body }) => {
        assertValid(validateSubcontractorInput(body, 'create'));
        if (body.verification && !can(ctx, 'cis.sub.verify') && body.verification.status !== 'standard')
          throw problems.forbidden('This requires the cis.sub.verify permission.');
        return context.inTenant(ctx.tenantId, async (trx) => {
          const id = randomUUID();
          const [row] = await trx<SubcontractorRow>('subcontractors')
            .insert({
              id,
              tenant_id: ctx.tenantId,
              ...columns(context, body),
              archived: !body.active,
              gdpr_consent_date: body.gdprConsent ? new Date() : null,
              verified_by: body.verification ? ctx.userId : null,
              created_by: ctx.userId,
              updated_by: ctx.userId,
            } as Record<string, unknown>)
            .returning('*');
          if (!row) throw new Error('insert returned nothing');
          await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.subcontractor.created', {
            targetType: 'subcontractor',
            targetId: id,
            summary: `Subcontractor ${row.name} added`,
            details: { type: row.type, rate: row.verification_rate },
          });
          return { subcontractor: subcontractorView(row) };
        });
      },
    })
    .route({
      method: 'put',
      path: '/subcontractors/:id',
      summary: 'Edit a subcontractor (a blank UTR keeps the stored one)',
      scopes: ['cis.sub.write'],
      request: { params: idParam, body: subcontractorInput },
      responses: { 200: { description: 'Saved', schema: z.object({ subcontractor: looseObject }) } },
      handler: ({ ctx, params, body }) => {
        assertValid(validateSubcontractorInput(body, 'edit'));
        return context.inTenant(ctx.tenantId, async (trx) => {
          const existing = await requireSubcontractor(trx, params.id);
          const verificationChanged =
            body.verification !== undefined &&
            (body.verification.status !== existing.verification_status ||
              body.verification.reference.toUpperCase() !== existing.verification_reference);
          if (verificationChanged && !can(ctx, 'cis.sub.verify'))
            throw problems.forbidden('This requires the cis.sub.verify permission.');
          const [row] = await trx<SubcontractorRow>('subcontractors')
            .where({ id: params.id })
            .update({
              ...columns(context, body, existing),
              archived: body.active ? false : existing.archived || !body.active,
              gdpr_consent_date:
                body.gdprConsent && !existing.gdpr_consent ? new Date() : existing.gdpr_consent_date,
              ...(verificationChanged ? { verified_by: ctx.userId } : {}),
              updated_at: trx.fn.now(),
              updated_by: ctx.userId,
            } as Record<string, unknown>)
            .returning('*');
          if (!row) throw problems.notFound('Subcontractor not found');
          await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.subcontractor.updated', {
            targetType: 'subcontractor',
            targetId: row.id,
            summary: `Subcontractor ${row.name} updated`,
          });
          if (verificationChanged) {
            await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.subcontractor.verified', {
              targetType: 'subcontractor',
              targetId: row.id,
              summary: `Subcontractor ${row.name} verified at ${row.verification_rate}%`,
              details: { status: row.verification_status, rate: row.verification_rate },
            });
          }
          return { subcontractor: subcontractorView(row) };
        });
      },
    })
    .route({
      // Before /subcontractors/:id/verification, which would otherwise take 'bulk' for an id.
      method: 'post',
      path: '/subcontractors/bulk/verification',
      summary:
        'Record one verification for many subcontractors (the status sets each rate; archived, deleted and unknown ids refused per id; one bulk audit entry)',
      scopes: ['cis.sub.verify'],
      request: { body: bulkVerificationInput },
      responses: { 200: { description: 'Per-id outcome', schema: batchResult } },
      handler: ({ ctx, body }) => {
        assertValid(verificationErrors(body.verification));
        return bulkVerify(ctx, body.ids, body.verification);
      },
    })
    .route({
      method: 'post',
      path: '/subcontractors/:id/verification',
      summary: 'Record a verification: the status sets the rate (gross 0, standard 20, higher 30)',
      scopes: ['cis.sub.verify'],
      request: { params: idParam, body: verificationInput },
      responses: { 200: { description: 'Verified', schema: z.object({ subcontractor: looseObject }) } },
      handler: ({ ctx, params, body }) => {
        assertValid(verificationErrors(body));
        return context.inTenant(ctx.tenantId, async (trx) => {
          await requireSubcontractor(trx, params.id);
          const [row] = await trx<SubcontractorRow>('subcontractors')
            .where({ id: params.id })
            .update(verificationColumns(trx, body, ctx.userId))
            .returning('*');
          if (!row) throw problems.notFound('Subcontractor not found');
          await auditVerified(trx, ctx, row, body.method);
          return { subcontractor: subcontractorView(row) };
        });
      },
    })
    .route({
      method: 'post',
      path: '/subcontractors/archive',
      summary: 'Archive subcontractors (single or bulk; one bulk audit entry)',
      scopes: ['cis.sub.write'],
      request: { body: idsBody },
      responses: { 200: { description: 'Per-id outcome', schema: batchResult } },
      handler: ({ ctx, body }) => batch(ctx, body.ids, 'archive'),
    })
    .route({
      method: 'post',
      path: '/subcontractors/delete',
      summary: 'Soft-delete subcontractors (deleted timestamp and user; never listed again)',
      scopes: ['cis.sub.write'],
      request: { body: idsBody },
      responses: { 200: { description: 'Per-id outcome', schema: batchResult } },
      handler: ({ ctx, body }) => batch(ctx, body.ids, 'delete'),
    })
    .route({
      method: 'post',
      path: '/subcontractors/invite',
      summary:
        'Invite to the portal: creates the subcontractor when needed, gets a magic link from identity, emails it',
      scopes: ['cis.portal.invite'],
      request: { body: inviteInput },
      responses: {
        200: {
          description: 'The link (shown once) and whether the email went',
          schema: z.object({
            success: z.boolean(),
            subcontractorId: z.string(),
            magicLink: z.string(),
            expiresIn: z.string(),
            tenantName: z.string(),
            emailSent: z.boolean(),
            warning: z.string().optional(),
          }),
        },
      },
      handler: async ({ ctx, body, req }) => {
        let subcontractor: { id: string; name: string; email: string };
        if ('subcontractorId' in body) {
          const row = await context.inTenant(ctx.tenantId, (trx) =>
            requireSubcontractor(trx, body.subcontractorId),
          );
          if (!row.email) throw problems.badRequest('Name and email are required');
          subcontractor = row;
        } else {
          const name = body.name.trim();
          const email = body.email.trim();
          if (name.length === 0 || email.length === 0)
            throw problems.badRequest('Name and email are required');
          if (!can(ctx, 'cis.sub.write'))
            throw problems.forbidden('This requires the cis.sub.write permission.');
          const errors = validateSubcontractorInput(
            {
              type: body.type,
              name,
              email,
              ...(body.type === 'individual' && body.nino ? { nino: body.nino } : {}),
              ...(body.type === 'company' && body.companyNumber ? { companyNumber: body.companyNumber } : {}),
            },
            'edit',
          );
          const relevant = Object.fromEntries(
            Object.entries(errors).filter(([field]) => ['name', 'email', 'nino', 'type'].includes(field)),
          );
          assertValid(relevant);
          subcontractor = await context.inTenant(ctx.tenantId, async (trx) => {
            const id = randomUUID();
            const utr = body.utr.replace(/\D/g, '');
            const nino = body.type === 'individual' && body.nino ? validateNino(body.nino).normalised : '';
            await trx('subcontractors').insert({
              id,
              tenant_id: ctx.tenantId,
              type: body.type,
              name,
              email,
              ...(utr ? { utr_enc: context.encrypt(utr), utr_masked: maskUtr(utr) } : {}),
              ...(nino ? { nino_enc: context.encrypt(nino), nino_masked: maskNino(nino) } : {}),
              company_number:
                body.type === 'company' ? body.companyNumber.replace(/\s+/g, '').toUpperCase() : '',
              portal_access: true,
              active: true,
              verification_status: 'standard',
              verification_rate: 20,
              created_by: ctx.userId,
              updated_by: ctx.userId,
            });
            await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.subcontractor.created', {
              targetType: 'subcontractor',
              targetId: id,
              summary: `Subcontractor ${name} added by portal invitation`,
              details: { type: body.type, rate: 20 },
            });
            return { id, name, email };
          });
        }
        const link = await context.createPortalLink(req.headers.authorization ?? '', subcontractor.id);
        const mail = await context.mailer
          .send({
            tenantId: ctx.tenantId,
            to: subcontractor.email,
            subject: `${link.tenantName} has invited you to their subcontractor portal`,
            text: [
              `Hello ${subcontractor.name},`,
              '',
              `${link.tenantName} has invited you to their subcontractor portal, where you can see your invoices and payment and deduction statements.`,
              '',
              `Open the portal: ${link.magicLink}`,
              '',
              'The link expires in 15 minutes and can be used once.',
            ].join('\n'),
            category: 'portal-invite',
          })
          .catch((error: unknown) => {
            context.logger.warn({ err: error }, 'portal invitation email could not be handed over');
            return { delivered: false };
          });
        await context.inTenant(ctx.tenantId, async (trx) => {
          await trx('subcontractors').where({ id: subcontractor.id }).update({ portal_access: true });
          await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.subcontractor.invited', {
            targetType: 'subcontractor',
            targetId: subcontractor.id,
            summary: `Subcontractor ${subcontractor.name} invited to the portal`,
            details: { emailSent: mail.delivered },
          });
        });
        return {
          success: true,
          subcontractorId: subcontractor.id,
          magicLink: link.magicLink,
          expiresIn: '15 minutes',
          tenantName: link.tenantName,
          emailSent: mail.delivered,
          ...(mail.delivered ? {} : { warning: EMAIL_WARNING }),
        };
      },
    });
}
