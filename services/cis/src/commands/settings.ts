import { inSavepoint } from '@workspace/kit';
import type { Knex } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { SettingsStore, type SettingsRecord } from '../db/settings.store.js';
import { DeadlineScanQueue } from '../db/deadline-alerts.store.js';
import {
  CHECKLIST_SCOPES,
  checkRolePermissions,
  DEFAULT_CIS_SETTINGS,
  londonDate,
  maskUtr,
  settingsReadyIssues,
  validateSettingsInput,
  validateUtr,
} from '../domain/index.js';
import type { Actor } from '../events/audit.js';
import { assertValid } from './problems.js';

export interface SettingsInput {
  active: boolean;
  companyName: string;
  employerRef: string;
  accountsOfficeRef: string;
  utr?: string | undefined;
  vatScheme: 'standard' | 'reduced' | 'zero' | 'flat';
  emailStatements: boolean;
  warningDays: number;
  statementDeadlineDays: number;
  emailFrom: string;
  emailReplyTo: string;
  statementFooter: string;
}

/**
 * The settings for a screen that only shows them (GET /settings, the dashboard): when they cannot be read, the
 * same defaults in memory (cis.md section 4 'Settings'), the failure logged. The read runs in a savepoint so the
 * request's transaction goes on. Flows that act on the settings (statements, submit) load them and fail.
 */
export async function settingsOrDefaults(
  deps: CisDeps,
  trx: Knex.Transaction,
  tenantId: string,
): Promise<SettingsRecord> {
  try {
    return await inSavepoint(trx, (inner) => new SettingsStore(inner).load(tenantId));
  } catch (error) {
    deps.logger.error({ err: error, tenantId }, 'CIS settings could not be loaded; using the defaults');
    const now = deps.clock.now();
    const d = DEFAULT_CIS_SETTINGS;
    return {
      tenantId,
      active: d.active,
      companyName: d.companyName,
      employerRef: d.employerRef,
      accountsOfficeRef: d.accountsOfficeRef,
      utrEnc: null,
      utrMasked: '',
      vatScheme: d.vatScheme,
      emailStatements: d.emailStatements,
      warningDays: d.warningDays,
      statementDeadlineDays: d.statementDeadlineDays,
      emailFrom: d.emailFrom,
      emailReplyTo: d.emailReplyTo,
      statementFooter: d.statementFooter,
      activeSince: null,
      createdAt: now,
      updatedAt: now,
      updatedBy: null,
    };
  }
}

/** What is still missing before a return can be submitted (the contractor UTR opened to check it). */
const readinessOf = (deps: CisDeps, row: SettingsRecord) =>
  settingsReadyIssues({
    companyName: row.companyName,
    employerRef: row.employerRef,
    accountsOfficeRef: row.accountsOfficeRef,
    utr: deps.sealed.open(row.utrEnc),
  });

/** The settings (created with defaults on first read, or the defaults when unreadable) and their readiness. */
export function readSettings(deps: CisDeps, tenantId: string) {
  return deps.inTenant(tenantId, async (trx) => {
    const row = await settingsOrDefaults(deps, trx, tenantId);
    return { row, readiness: readinessOf(deps, row) };
  });
}

/** Saves the settings; a blank UTR keeps the stored one (stored sealed, shown masked). */
export function saveSettings(deps: CisDeps, actor: Actor, input: SettingsInput) {
  const utr = (input.utr ?? '').replace(/\s+/g, '');
  assertValid(validateSettingsInput({ ...input, utr }));
  return deps.inTenant(actor.tenantId, async (trx) => {
    const settings = new SettingsStore(trx);
    const before = await settings.load(actor.tenantId);
    const normalisedUtr = utr ? validateUtr(utr).normalised : '';
    const row = await settings.update(
      actor.tenantId,
      {
        active: input.active,
        companyName: input.companyName.trim(),
        employerRef: input.employerRef.trim().toUpperCase(),
        accountsOfficeRef: input.accountsOfficeRef.trim().toUpperCase(),
        ...(normalisedUtr
          ? { utrEnc: deps.sealed.seal(normalisedUtr), utrMasked: maskUtr(normalisedUtr) }
          : {}),
        vatScheme: input.vatScheme,
        emailStatements: input.emailStatements,
        warningDays: input.warningDays,
        statementDeadlineDays: input.statementDeadlineDays,
        emailFrom: input.emailFrom.trim(),
        emailReplyTo: input.emailReplyTo.trim(),
        statementFooter: input.statementFooter,
        // The first switch-on starts the months that owe a return (ADR 0035); switching off and on keeps it.
        ...(input.active && !before.activeSince ? { activeSince: londonDate(deps.clock.now()) } : {}),
      },
      actor.userId,
    );
    if (!row) throw new Error('CIS settings vanished during the update');
    await deps.audit.write(trx, actor, 'cis.settings.updated', {
      targetType: 'settings',
      targetId: 'config',
      summary: 'CIS settings updated',
      details: { utrChanged: normalisedUtr !== '' },
    });
    // The daily deadline scan looks at tenants whose module is on (commands/deadline-scan.ts).
    if (row.active) await DeadlineScanQueue.enlist(trx, actor.tenantId);
    else await DeadlineScanQueue.delist(trx, actor.tenantId);
    if (before.active !== row.active) {
      await deps.audit.write(trx, actor, row.active ? 'cis.module.activated' : 'cis.module.deactivated', {
        targetType: 'module',
        targetId: 'cis',
        summary: row.active ? 'CIS module activated' : 'CIS module deactivated',
      });
    }
    return { row, readiness: readinessOf(deps, row) };
  });
}

/** The Role Permissions checklist: each role bundle's CIS scopes (from identity) with its errors and warnings. */
export async function rolePermissions(deps: CisDeps, authorization: string) {
  const bundles = await deps.identity.cisRoleBundles(authorization);
  return { bundles, scopes: CHECKLIST_SCOPES, ...checkRolePermissions(bundles) };
}

/** Sets the CIS scopes of a role bundle at identity, records it, and answers the checklist again. */
export async function setRolePermissions(
  deps: CisDeps,
  actor: Actor & { authorization: string },
  bundleId: string,
  scopes: string[],
) {
  await deps.identity.setCisRoleBundle(actor.authorization, bundleId, scopes);
  await deps.inTenant(actor.tenantId, (trx) =>
    deps.audit.write(trx, actor, 'cis.settings.updated', {
      targetType: 'settings',
      targetId: bundleId,
      summary: `CIS permissions of role ${bundleId} changed`,
      details: { roleBundle: bundleId, scopes: scopes.join(' ') },
    }),
  );
  return rolePermissions(deps, actor.authorization);
}
