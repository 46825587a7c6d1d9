import type { SettingsRecord } from '../db/settings.store.js';
import { iso } from '../domain/timestamps.js';

export const presentSettings = (saved: { row: SettingsRecord; readiness: string[] }) => ({
  settings: {
    active: saved.row.active,
    companyName: saved.row.companyName,
    employerRef: saved.row.employerRef,
    accountsOfficeRef: saved.row.accountsOfficeRef,
    utrMasked: saved.row.utrMasked,
    hasUtr: saved.row.utrEnc !== null,
    vatScheme: saved.row.vatScheme as 'standard' | 'reduced' | 'zero' | 'flat',
    emailStatements: saved.row.emailStatements,
    warningDays: saved.row.warningDays,
    statementDeadlineDays: saved.row.statementDeadlineDays,
    emailFrom: saved.row.emailFrom,
    emailReplyTo: saved.row.emailReplyTo,
    statementFooter: saved.row.statementFooter,
    createdAt: iso(saved.row.createdAt) ?? '',
    updatedAt: iso(saved.row.updatedAt) ?? '',
  },
  readiness: saved.readiness,
});
