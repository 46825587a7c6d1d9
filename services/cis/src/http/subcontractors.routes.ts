import { ApiRouter, hasScope } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { invitationEmailFailure } from '../commands/mail-failures.js';
import { inviteSubcontractor } from '../commands/invite-subcontractor.js';
import {
  createSubcontractor,
  exportSubcontractors,
  listSubcontractors,
  readSubcontractor,
  retireSubcontractors,
  updateSubcontractor,
  verifySubcontractor,
  verifySubcontractors,
} from '../commands/subcontractors.js';
import { findDuplicates, mergeSubcontractors } from '../commands/subcontractor-identity.js';
import { IDENTITY_KEY_LABELS } from '../domain/index.js';
import { subcontractorWarnings } from '../domain/index.js';
import { batchResult, idParam, idsBody } from './common.schemas.js';
import { sendCsv } from './http-helpers.js';
import { presentInvitation, presentSubcontractor } from './subcontractors.present.js';
import {
  bulkVerificationInput,
  duplicateGroupsResponse,
  inviteInput,
  mergeInput,
  mergeResponse,
  inviteResponse,
  subcontractorInput,
  subcontractorListQuery,
  subcontractorListResponse,
  subcontractorPageQuery,
  subcontractorResponse,
  unmaskQuery,
  verificationInput,
} from './subcontractors.schemas.js';

export function subcontractorRoutes(deps: CisDeps): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/subcontractors',
      summary: 'Subcontractors (by name; soft-deleted never; pages of up to 1,000) with the four stat cards',
      scopes: ['cis.sub.read'],
      request: { query: subcontractorPageQuery },
      responses: { 200: { description: 'The list', schema: subcontractorListResponse } },
      handler: async ({ ctx, query }) => {
        const { rows, total, stats } = await listSubcontractors(deps, ctx.tenantId, query);
        return {
          items: rows.map((row) => presentSubcontractor(row)),
          total,
          page: query.page,
          pageSize: query.pageSize,
          stats,
        };
      },
    })
    .route({
      method: 'get',
      path: '/subcontractors/export.csv',
      summary: 'Subcontractors as CSV (cis-subcontractors-{date}.csv; identifiers masked)',
      scopes: ['cis.sub.read', 'cis.io.export'],
      request: { query: subcontractorListQuery },
      responses: { 200: { description: 'text/csv' } },
      handler: async ({ ctx, query, res }) => {
        const { content, filename, count } = await exportSubcontractors(deps, ctx, query);
        res.set('X-Record-Count', String(count));
        sendCsv(res, filename, content);
      },
    })
    .route({
      // Before /subcontractors/:id, which would otherwise take 'duplicates' for an id.
      method: 'get',
      path: '/subcontractors/duplicates',
      summary:
        'Live subcontractors sharing a UTR, NINO or company number (created before duplicates were refused)',
      scopes: ['cis.sub.read'],
      responses: { 200: { description: 'The sets of duplicates', schema: duplicateGroupsResponse } },
      handler: async ({ ctx }) => ({
        groups: (await findDuplicates(deps, ctx.tenantId)).map((group) => ({
          identifier: group.identifier,
          label: IDENTITY_KEY_LABELS[group.identifier],
          subcontractors: group.subcontractors.map((row) => presentSubcontractor(row)),
        })),
      }),
    })
    .route({
      method: 'post',
      path: '/subcontractors/merge',
      summary:
        'Merge a duplicate into the record kept: its invoices, statements and portal access move, it is archived with a note (audited)',
      scopes: ['cis.sub.write'],
      request: { body: mergeInput },
      responses: { 200: { description: 'The record kept', schema: mergeResponse } },
      handler: async ({ ctx, body }) => {
        const outcome = await mergeSubcontractors(deps, ctx, body.keepId, body.mergeId);
        return {
          subcontractor: presentSubcontractor(outcome.kept),
          mergedId: outcome.merged.id,
          invoicesMoved: outcome.invoices,
          statementsMoved: outcome.statements,
        };
      },
    })
    .route({
      method: 'get',
      path: '/subcontractors/:id',
      summary: 'One subcontractor; UTR and NINO in clear only with cis.pii.unmask and unmask=true',
      scopes: ['cis.sub.read'],
      request: { params: idParam, query: unmaskQuery },
      responses: { 200: { description: 'The subcontractor', schema: subcontractorResponse } },
      handler: async ({ ctx, params, query }) => {
        const unmask = query.unmask === 'true' ? { allowed: hasScope(ctx, 'cis.pii.unmask') } : undefined;
        const { row, clear } = await readSubcontractor(deps, ctx, params.id, unmask);
        return {
          subcontractor: presentSubcontractor(row, clear),
          invitationEmailFailure: await invitationEmailFailure(deps, ctx.tenantId, row.id),
        };
      },
    })
    .route({
      method: 'post',
      path: '/subcontractors',
      summary: 'Create a subcontractor (every rule of cis.md section 5; UTR and NINO sealed)',
      scopes: ['cis.sub.write'],
      status: 201,
      request: { body: subcontractorInput },
      responses: { 201: { description: 'Created', schema: subcontractorResponse } },
      handler: async ({ ctx, body }) => {
        const actor = {
          tenantId: ctx.tenantId,
          userId: ctx.userId,
          canVerify: hasScope(ctx, 'cis.sub.verify'),
        };
        return {
          subcontractor: presentSubcontractor(await createSubcontractor(deps, actor, body)),
          warnings: subcontractorWarnings(body),
        };
      },
    })
    .route({
      method: 'put',
      path: '/subcontractors/:id',
      summary: 'Edit a subcontractor (a blank UTR keeps the stored one)',
      scopes: ['cis.sub.write'],
      request: { params: idParam, body: subcontractorInput },
      responses: { 200: { description: 'Saved', schema: subcontractorResponse } },
      handler: async ({ ctx, params, body }) => {
        const actor = {
          tenantId: ctx.tenantId,
          userId: ctx.userId,
          canVerify: hasScope(ctx, 'cis.sub.verify'),
        };
        return {
          subcontractor: presentSubcontractor(await updateSubcontractor(deps, actor, params.id, body)),
          warnings: subcontractorWarnings(body),
        };
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
      handler: ({ ctx, body }) => verifySubcontractors(deps, ctx, body.ids, body.verification),
    })
    .route({
      method: 'post',
      path: '/subcontractors/:id/verification',
      summary: 'Record a verification: the status sets the rate (gross 0, standard 20, higher 30)',
      scopes: ['cis.sub.verify'],
      request: { params: idParam, body: verificationInput },
      responses: { 200: { description: 'Verified', schema: subcontractorResponse } },
      handler: async ({ ctx, params, body }) => ({
        subcontractor: presentSubcontractor(await verifySubcontractor(deps, ctx, params.id, body)),
      }),
    })
    .route({
      method: 'post',
      path: '/subcontractors/archive',
      summary: 'Archive subcontractors (single or bulk; one bulk audit entry)',
      scopes: ['cis.sub.write'],
      request: { body: idsBody },
      responses: { 200: { description: 'Per-id outcome', schema: batchResult } },
      handler: ({ ctx, body }) => retireSubcontractors(deps, ctx, body.ids, 'archive'),
    })
    .route({
      method: 'post',
      path: '/subcontractors/delete',
      summary: 'Soft-delete subcontractors (deleted timestamp and user; never listed again)',
      scopes: ['cis.sub.write'],
      request: { body: idsBody },
      responses: { 200: { description: 'Per-id outcome', schema: batchResult } },
      handler: ({ ctx, body }) => retireSubcontractors(deps, ctx, body.ids, 'delete'),
    })
    .route({
      method: 'post',
      path: '/subcontractors/invite',
      summary:
        'Invite to the portal: creates the subcontractor when needed, gets a magic link from identity, emails it',
      scopes: ['cis.portal.invite'],
      request: { body: inviteInput },
      responses: {
        200: { description: 'The link (shown once) and whether the email went', schema: inviteResponse },
      },
      handler: async ({ ctx, body, req }) => {
        const actor = {
          tenantId: ctx.tenantId,
          userId: ctx.userId,
          canWrite: hasScope(ctx, 'cis.sub.write'),
          authorization: req.headers.authorization ?? '',
        };
        return presentInvitation(await inviteSubcontractor(deps, actor, body));
      },
    });
}
