import type { z } from 'zod';
import type { SettingsRecord } from '../db/settings.store.js';
import { timestamp } from './http-helpers.js';
import type { settingsResponse } from './settings.schemas.js';

export const presentSettings = (saved: {
  row: SettingsRecord;
  readiness: string[];
}): z.input<typeof settingsResponse> => ({
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
    createdAt: timestamp(saved.row.createdAt),
    updatedAt: timestamp(saved.row.updatedAt),
  },
  readiness: saved.readiness,
});
