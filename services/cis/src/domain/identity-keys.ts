// One subcontractor per person (issue 13, ADR 0039): the identifiers that say who a subcontractor is, written the
// one way they are compared, whatever way they were typed. Pure: the keyed hash of each is made by the service.

/** The identifiers compared for duplicates, as the user reads them in messages. */
export const IDENTITY_KEY_LABELS = {
  utr: 'UTR',
  nino: 'National Insurance number',
  crn: 'company number',
} as const;

export type IdentityKind = keyof typeof IDENTITY_KEY_LABELS;

export const IDENTITY_KINDS = Object.keys(IDENTITY_KEY_LABELS) as IdentityKind[];

/** The normalised identifiers of one subcontractor ('' where it has none). */
export type IdentityKeys = Record<IdentityKind, string>;

/** UTR: its digits only (spaces, a 'K' and punctuation dropped). */
export const utrKey = (utr: string): string => utr.replace(/\D/g, '');

/** NINO: upper-case without spaces. */
export const ninoKey = (nino: string): string => nino.replace(/\s+/g, '').toUpperCase();

/** Company number: upper-case (spaces dropped, as it is stored). */
export const crnKey = (crn: string): string => crn.replace(/\s+/g, '').toUpperCase();

export function identityKeys(identifiers: {
  utr?: string;
  nino?: string;
  companyNumber?: string;
}): IdentityKeys {
  return {
    utr: utrKey(identifiers.utr ?? ''),
    nino: ninoKey(identifiers.nino ?? ''),
    crn: crnKey(identifiers.companyNumber ?? ''),
  };
}

/** The refusal of a duplicate, naming the record that already holds the identifier. */
export const duplicateMessage = (kind: IdentityKind, existingName: string): string =>
  `${existingName} already has this ${IDENTITY_KEY_LABELS[kind]}: each person has one subcontractor record. Open their record instead of adding another.`;

/** Invite to Portal found the person already on file (by email or UTR). */
export const inviteeExistsMessage = (by: 'email' | 'utr', existingName: string): string =>
  `${existingName} is already a subcontractor with this ${by === 'email' ? 'email address' : 'UTR'}. Invite them instead of creating a second record.`;

/** What a subcontractor created by an invitation still lacks before its details are complete. */
export type MissingDetail = 'address' | 'gdprConsent';

export const MISSING_DETAIL_LABELS: Record<MissingDetail, string> = {
  address: 'address',
  gdprConsent: 'GDPR consent',
};

/** The registered address is complete with its first line, city and postcode (the create form's rule). */
export function missingDetails(subcontractor: {
  registeredAddress: { line1?: string; city?: string; postcode?: string } | null | undefined;
  gdprConsent: boolean;
}): MissingDetail[] {
  const address = subcontractor.registeredAddress ?? {};
  const missing: MissingDetail[] = [];
  if (![address.line1, address.city, address.postcode].every((part) => (part ?? '').trim() !== ''))
    missing.push('address');
  if (!subcontractor.gdprConsent) missing.push('gdprConsent');
  return missing;
}
