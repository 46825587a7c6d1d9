import { ApiRouter, type Knex } from '@workspace/kit';
import { z } from 'zod';
import type { CisContext } from '../context.js';
import {
  CHECKLIST_SCOPES,
  checkRolePermissions,
  cisAbilities,
  DEFAULT_CIS_SETTINGS,
  maskUtr,
  settingsReadyIssues,
  validateSettingsInput,
  validateUtr,
} from '../domain/index.js';
import { assertValid, iso } from './common.js';

export interface SettingsRow {
  tenant_id: string;
  active: boolean;
  company_name: string;
  employer_ref: string;
  accounts_office_ref: string;
  utr_enc: string | null;
  utr_masked: string;
  vat_scheme: string;
  email_statements: boolean;
  warning_days: number;
  statement_deadline_days: number;
  email_from: string;
  email_reply_to: string;
  statement_footer: string;
  created_at: Date;
  updated_at: Date;
  updated_by: string | null;
}

/** The tenant's settings, created with the spec's defaults on first read (cis.md section 4 'Settings'). */
export async function loadSettings(trx: Knex.Transaction, tenantId: string): Promise<SettingsRow> {
  const existing = await trx<SettingsRow>('settings').where({ tenant_id: tenantId }).first();
  if (existing) return existing;
  await trx('settings').insert({ tenant_id: tenantId }).onConflict('tenant_id').ignore();
  const created = await trx<SettingsRow>('settings').where({ tenant_id: tenantId }).first();
  if (!created) throw new Error('CIS settings could not be created');
  return created;
}

/**
 * The settings for a screen that only shows them (GET /settings, the dashboard): when they cannot be read, the
 * same defaults in memory (cis.md section 4 'Settings'), the failure logged. The read runs in a savepoint so the
 * request's transaction goes on. Flows that act on the settings (statements, submit) use loadSettings and fail.
 */
export async function loadSettingsOrDefaults(
  context: CisContext,
  trx: Knex.Transaction,
  tenantId: string,
): Promise<SettingsRow> {
  try {
    return await trx.transaction((inner) => loadSettings(inner, tenantId));
  } catch (error) {
    context.logger.error({ err: error, tenantId }, 'CIS settings could not be loaded; using the defaults');
    const now = new Date();
    const d = DEFAULT_CIS_SETTINGS;
    return {
      tenant_id: tenantId,
      active: d.active,
      company_name: d.companyName,
      employer_ref: d.employerRef,
      accounts_office_ref: d.accountsOfficeRef,
      utr_enc: null,
      utr_masked: '',
      vat_scheme: d.vatScheme,
      email_statements: d.emailStatements,
      warning_days: d.warningDays,
      statement_deadline_days: d.statementDeadlineDays,
      email_from: d.emailFrom,
      email_reply_to: d.emailReplyTo,
      statement_footer: d.statementFooter,
      created_at: now,
      updated_at: now,
      updated_by: null,
    };
  }
}

export const settingsView = (row: SettingsRow) => ({
  active: row.active,
  companyName: row.company_name,
  employerRef: row.employer_ref,
  accountsOfficeRef: row.accounts_office_ref,
  utrMasked: row.utr_masked,
  hasUtr: row.utr_enc !== null,
  vatScheme: row.vat_scheme as 'standard' | 'reduced' | 'zero' | 'flat',
  emailStatements: row.email_statements,
  warningDays: row.warning_days,
  statementDeadlineDays: row.statement_deadline_days,
  emailFrom: row.email_from,
  emailReplyTo: row.email_reply_to,
  statementFooter: row.statement_footer,
  createdAt: iso(row.created_at) ?? '',
  updatedAt: iso(row.updated_at) ?? '',
});

const settingsSchema = z.object({
  active: z.boolean(),
  companyName: z.string(),
  employerRef: z.string(),
  accountsOfficeRef: z.string(),
  utrMasked: z.string(),
  hasUtr: z.boolean(),
  vatScheme: z.enum(['standard', 'reduced', 'zero', 'flat']),
  emailStatements: z.boolean(),
  warningDays: z.number(),
  statementDeadlineDays: z.number(),
  emailFrom: z.string(),
  emailReplyTo: z.string(),
  statementFooter: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const settingsResponse = z.object({ settings: settingsSchema, readiness: z.array(z.string()) });

const readiness = (context: CisContext, row: SettingsRow) =>
  settingsReadyIssues({
    companyName: row.company_name,
    employerRef: row.employer_ref,
    accountsOfficeRef: row.accounts_office_ref,
    utr: context.decrypt(row.utr_enc),
  });

const settingsInput = z.object({
  active: z.boolean(),
  companyName: z.string().max(200),
  employerRef: z.string().max(20),
  accountsOfficeRef: z.string().max(20),
  utr: z.string().max(20).optional(),
  vatScheme: z.enum(['standard', 'reduced', 'zero', 'flat']),
  emailStatements: z.boolean(),
  warningDays: z.number().int(),
  statementDeadlineDays: z.number().int(),
  emailFrom: z.string().max(200).default(''),
  emailReplyTo: z.string().max(200).default(''),
  statementFooter: z.string().max(500).default(''),
});

const rolePermissions = z.object({
  bundles: z.array(z.object({ id: z.string(), name: z.string(), scopes: z.array(z.string()) })),
  scopes: z.array(z.string()),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
});

export function settingsRoutes(context: CisContext): ApiRouter {
  const permissions = async (authorization: string) => {
    const answer = await context.identityCall<{ items: { id: string; name: string; scopes: string[] }[] }>(
      authorization,
      'GET',
      '/v1/module-role-bundles/cis',
    );
    const bundles = answer?.items ?? [];
    return { bundles, scopes: CHECKLIST_SCOPES, ...checkRolePermissions(bundles) };
  };
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/role-permissions',
      summary:
        'The Role Permissions checklist: each role bundle’s CIS scopes with the checklist’s errors and warnings',
      scopes: ['cis.settings.read'],
      responses: { 200: { description: 'Checklist', schema: rolePermissions } },
      handler: ({ req }) => permissions(req.headers.authorization ?? ''),
    })
    .route({
      method: 'put',
      path: '/role-permissions/:bundleId',
      summary: 'Set the CIS scopes of a role bundle (stored in identity; caches drop at once)',
      scopes: ['cis.settings.write'],
      request: {
        params: z.object({ bundleId: z.string().max(41) }),
        body: z.object({ scopes: z.array(z.string().startsWith('cis.')).max(40) }),
      },
      responses: { 200: { description: 'Checklist', schema: rolePermissions } },
      handler: async ({ ctx, params, body, req }) => {
        const authorization = req.headers.authorization ?? '';
        await context.identityCall(
          authorization,
          'PUT',
          `/v1/module-role-bundles/cis/${encodeURIComponent(params.bundleId)}`,
          {
            scopes: body.scopes,
          },
        );
        await context.inTenant(ctx.tenantId, (trx) =>
          context.audit(trx, ctx.tenantId, ctx.userId, 'cis.settings.updated', {
            targetType: 'settings',
            targetId: params.bundleId,
            summary: `CIS permissions of role ${params.bundleId} changed`,
            details: { roleBundle: params.bundleId, scopes: body.scopes.join(' ') },
          }),
        );
        return permissions(authorization);
      },
    })
    .route({
      method: 'get',
      path: '/me/abilities',
      summary: "The caller's CIS abilities: the UI flags of cis.md section 6",
      responses: {
        200: {
          description: 'Abilities',
          schema: z.object({ abilities: z.record(z.string(), z.boolean()), testingTools: z.boolean() }),
        },
      },
      handler: ({ ctx }) =>
        Promise.resolve({
          abilities: cisAbilities([...ctx.scopes]) as unknown as Record<string, boolean>,
          testingTools: context.config.CIS_TESTING_TOOLS,
        }),
    })
    .route({
      method: 'get',
      path: '/settings',
      summary: 'CIS settings (created with defaults on first read); the contractor UTR only masked',
      scopes: ['cis.settings.read'],
      responses: { 200: { description: 'Settings', schema: settingsResponse } },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          const row = await loadSettingsOrDefaults(context, trx, ctx.tenantId);
          return { settings: settingsView(row), readiness: readiness(context, row) };
        }),
    })
    .route({
      method: 'put',
      path: '/settings',
      summary: 'Save CIS settings; a blank UTR keeps the stored one (stored encrypted, shown masked)',
      scopes: ['cis.settings.write'],
      request: { body: settingsInput },
      responses: { 200: { description: 'Saved settings', schema: settingsResponse } },
      handler: ({ ctx, body }) => {
        const utr = (body.utr ?? '').replace(/\s+/g, '');
        assertValid(validateSettingsInput({ ...body, utr }));
        return context.inTenant(ctx.tenantId, async (trx) => {
          const before = await loadSettings(trx, ctx.tenantId);
          const normalisedUtr = utr ? validateUtr(utr).normalised : '';
          const [row] = await trx<SettingsRow>('settings')
            .where({ tenant_id: ctx.tenantId })
            .update({
              active: body.active,
              company_name: body.companyName.trim(),
              employer_ref: body.employerRef.trim().toUpperCase(),
              accounts_office_ref: body.accountsOfficeRef.trim().toUpperCase(),
              ...(normalisedUtr
                ? { utr_enc: context.encrypt(normalisedUtr), utr_masked: maskUtr(normalisedUtr) }
                : {}),
              vat_scheme: body.vatScheme,
              email_statements: body.emailStatements,
              warning_days: body.warningDays,
              statement_deadline_days: body.statementDeadlineDays,
              email_from: body.emailFrom.trim(),
              email_reply_to: body.emailReplyTo.trim(),
              statement_footer: body.statementFooter,
              updated_at: trx.fn.now(),
              updated_by: ctx.userId,
            })
            .returning('*');
          if (!row) throw new Error('CIS settings vanished during the update');
          await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.settings.updated', {
            targetType: 'settings',
            targetId: 'config',
            summary: 'CIS settings updated',
            details: { utrChanged: normalisedUtr !== '' },
          });
          if (before.active !== row.active) {
            await context.audit(
              trx,
              ctx.tenantId,
              ctx.userId,
              row.active ? 'cis.module.activated' : 'cis.module.deactivated',
              {
                targetType: 'module',
                targetId: 'cis',
                summary: row.active ? 'CIS module activated' : 'CIS module deactivated',
              },
            );
          }
          return { settings: settingsView(row), readiness: readiness(context, row) };
        });
      },
    });
}
