import type { z } from 'zod';
import { EMPTY_ADDRESS } from '../commands/subcontractors.js';
import type { SubcontractorRecord } from '../db/subcontractors.store.js';
import { missingDetails, validateVatNumber } from '../domain/index.js';
import { dateOnly, iso } from '../domain/timestamps.js';
import { timestamp } from './http-helpers.js';
import type { inviteResponse, subcontractorSchema } from './subcontractors.schemas.js';

export function presentSubcontractor(
  row: SubcontractorRecord,
  clear?: { utr: string; nino: string },
): z.input<typeof subcontractorSchema> {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    utrMasked: row.utrMasked,
    ninoMasked: row.ninoMasked,
    ...(clear ? { utr: clear.utr, nino: clear.nino } : {}),
    companyNumber: row.companyNumber,
    vatNumber: row.vatNumber,
    vatCheckedAt: iso(row.vatCheckedAt),
    vatNumberChecksumValid: row.vatNumber ? validateVatNumber(row.vatNumber).checksumValid : null,
    email: row.email,
    phone: row.phone,
    mobile: row.mobile,
    registeredAddress: { ...EMPTY_ADDRESS, ...row.registeredAddress },
    tradingAddress: { ...EMPTY_ADDRESS, ...row.tradingAddress },
    tradingAddressSameAsRegistered: row.tradingAddressSameAsRegistered,
    gdprConsent: row.gdprConsent,
    gdprConsentDate: iso(row.gdprConsentDate),
    marketingConsent: row.marketingConsent,
    portalAccess: row.portalAccess,
    active: row.active,
    archived: row.archived,
    verification: {
      status: row.verificationStatus,
      rate: row.verificationRate,
      method: row.verificationMethod,
      reference: row.verificationReference,
      notes: row.verificationNotes,
      verifiedDate: dateOnly(row.verifiedDate),
      verifiedBy: row.verifiedBy,
    },
    createdAt: timestamp(row.createdAt),
    updatedAt: timestamp(row.updatedAt),
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
    detailsIncomplete: row.detailsIncomplete,
    missingDetails: row.detailsIncomplete ? missingDetails(row) : [],
    mergedInto: row.mergedInto,
    archiveNote: row.archiveNote,
  };
}

const EMAIL_WARNING = 'Email could not be sent. Please share the link manually.';

/** The invitation's answer: the link (shown once) and whether the email went. */
export const presentInvitation = (outcome: {
  subcontractorId: string;
  magicLink: string;
  tenantName: string;
  emailSent: boolean;
}): z.input<typeof inviteResponse> => ({
  success: true,
  subcontractorId: outcome.subcontractorId,
  magicLink: outcome.magicLink,
  expiresIn: '15 minutes',
  tenantName: outcome.tenantName,
  emailSent: outcome.emailSent,
  ...(outcome.emailSent ? {} : { warning: EMAIL_WARNING }),
});
