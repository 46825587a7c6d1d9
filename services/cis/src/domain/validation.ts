// Form and service input validation (spec §5). Each function returns a field → message map; an empty
// object means valid. Keys are the input's field names; nested fields use dotted keys
// ('registeredAddress.line1', 'verification.rate').

import { CIS_RATES, materialsAtLeastPercent, VAT_RATES } from './calculation.js';
import {
  containsPii,
  validateAccountsOfficeRef,
  validateCompanyNumber,
  validateEmail,
  validateEmployerRef,
  validateNino,
  validatePhone,
  validatePostcode,
  validateUtr,
  validateVatNumber,
  validateVerificationNumber,
  accountsOfficeRefWarning,
  utrWarning,
  vatNumberWarning,
} from './identifiers.js';
import {
  isVerificationStatus,
  SUBCONTRACTOR_TYPES,
  VERIFICATION_METHODS,
  verificationRate,
} from './states.js';
import { isIsoDate, toCalendarDate } from './tax-month.js';

export type FieldErrors = Record<string, string>;

/** Every user-facing validation message of spec §5 (verbatim) plus the few this module adds. */
export const VALIDATION_MESSAGES = {
  invoiceNumber: 'Valid invoice number required',
  subcontractorRequired: 'Subcontractor is required',
  invoiceDate: 'Invoice date is required',
  amountsNegative: 'Amounts cannot be negative',
  grossNegative: 'Gross amount cannot be negative',
  materialsNegative: 'Materials amount cannot be negative',
  grossInvalid: 'Invalid gross amount',
  materialsInvalid: 'Invalid materials amount',
  materialsExceedGross: 'Materials cannot exceed gross amount',
  vatRate: 'VAT rate must be 0%, 5%, or 20%',
  cisRate: 'CIS rate must be 0%, 20%, or 30%',
  justification60: 'Materials justification required when materials exceed 60%',
  justification80: 'Materials ≥80% require a justification note (min 10 characters)',
  name: 'Name is required',
  nameTooLong: 'Name must be 100 characters or fewer',
  subcontractorType: 'Invalid subcontractor type',
  utrRequired: 'Valid UTR required (10 digits)',
  nino: 'Invalid NINO format',
  companyNumber: 'Invalid company number',
  companyNumberRequired: 'Valid company number required for companies',
  vatNumber: 'Invalid VAT number format',
  email: 'Invalid email format',
  phone: 'Invalid phone number format',
  mobile: 'Invalid mobile format',
  addressLine1: 'Address line 1 is required',
  city: 'City is required',
  postcode: 'Postcode is required',
  postcodeInvalid: 'Invalid UK postcode (e.g., SW1A 1AA)',
  country: 'Country must be GB or NI',
  gdprConsent: 'GDPR consent is required',
  verificationStatus: 'Invalid verification status',
  verificationMethod: 'Invalid verification method',
  verificationRateMismatch:
    'CIS rate must match the verification status (gross 0%, standard 20%, higher 30%)',
  pii: 'Must not contain a tax reference (10-digit number) or a National Insurance number',
  employerRef: 'Invalid format (e.g., 123/AB12345)',
  accountsOfficeRef: 'Invalid format (e.g., 123PA00012345)',
  companyName: 'Company name is required',
  companyNameTooLong: 'Company name must be 100 characters or fewer',
  settingsUtr: 'Invalid UTR format (10 digits)',
  warningDays: 'Must be between 0 and 30 days',
  statementDeadlineDays: 'Must be between 1 and 30 days',
  vatScheme: 'Invalid VAT scheme',
} as const;

const M = VALIDATION_MESSAGES;
const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
const given = (value: unknown): boolean => text(value) !== '';

// ---- Invoice -------------------------------------------------------------------------------------------

export const INVOICE_NUMBER_MAX = 50;
/** Materials share (percent of gross) from which the justification note must be ≥10 characters everywhere. */
export const JUSTIFICATION_PERCENT = 60;
/** Materials share from which the stricter message of the form reading is used. */
export const JUSTIFICATION_STRICT_PERCENT = 80;
export const JUSTIFICATION_MIN_LENGTH = 10;

export interface InvoiceInput {
  invoiceNumber?: string | null;
  subcontractorId?: string | null;
  invoiceDate?: string | null;
  grossP?: number | null;
  materialsP?: number | null;
  vatRate?: number | null;
  cisRate?: number | null;
  materialsJustification?: string | null;
}

function amountError(value: unknown, negative: string, invalid: string): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return invalid;
  if (value < 0) return negative;
  if (!Number.isSafeInteger(value)) return invalid;
  return null;
}

/**
 * Invoice form and import rows. Justification (one rule for both spec readings): a note of at least 10
 * characters is required when materials are 60 % or more of gross; below 80 % the message is the schema's,
 * from 80 % the form's. The vatRate is required; cisRate is checked only when given.
 */
export function validateInvoiceInput(input: InvoiceInput): FieldErrors {
  const errors: FieldErrors = {};
  const number = text(input.invoiceNumber);
  if (number.length < 1 || number.length > INVOICE_NUMBER_MAX) errors.invoiceNumber = M.invoiceNumber;
  if (!given(input.subcontractorId)) errors.subcontractorId = M.subcontractorRequired;
  if (!given(input.invoiceDate) || !validDate(text(input.invoiceDate))) errors.invoiceDate = M.invoiceDate;

  const grossError = amountError(input.grossP, M.grossNegative, M.grossInvalid);
  const materialsError = amountError(input.materialsP ?? 0, M.materialsNegative, M.materialsInvalid);
  if (grossError) errors.grossP = grossError;
  if (materialsError) errors.materialsP = materialsError;
  if (grossError === M.grossNegative || materialsError === M.materialsNegative)
    errors.amounts = M.amountsNegative;

  const gross = input.grossP ?? 0;
  const materials = input.materialsP ?? 0;
  if (!grossError && !materialsError) {
    if (materials > gross) errors.materialsP = M.materialsExceedGross;
    else if (
      materialsAtLeastPercent(gross, materials, JUSTIFICATION_PERCENT) &&
      text(input.materialsJustification).length < JUSTIFICATION_MIN_LENGTH
    ) {
      errors.materialsJustification = materialsAtLeastPercent(gross, materials, JUSTIFICATION_STRICT_PERCENT)
        ? M.justification80
        : M.justification60;
    }
  }
  if (!(VAT_RATES as readonly unknown[]).includes(input.vatRate)) errors.vatRate = M.vatRate;
  if (
    input.cisRate !== undefined &&
    input.cisRate !== null &&
    !(CIS_RATES as readonly unknown[]).includes(input.cisRate)
  ) {
    errors.cisRate = M.cisRate;
  }
  return errors;
}

function validDate(value: string): boolean {
  if (isIsoDate(value)) return true;
  try {
    toCalendarDate(value);
    return true;
  } catch {
    return false;
  }
}

// ---- Subcontractor -------------------------------------------------------------------------------------

export interface AddressInput {
  line1?: string | null;
  line2?: string | null;
  city?: string | null;
  county?: string | null;
  postcode?: string | null;
  country?: string | null;
}

export interface SubcontractorInput {
  type?: string | null;
  name?: string | null;
  utr?: string | null;
  nino?: string | null;
  companyNumber?: string | null;
  vatNumber?: string | null;
  email?: string | null;
  phone?: string | null;
  mobile?: string | null;
  registeredAddress?: AddressInput | null;
  tradingAddress?: AddressInput | null;
  tradingAddressSameAsRegistered?: boolean | null;
  gdprConsent?: boolean | null;
  verification?: {
    status?: string | null;
    rate?: number | null;
    method?: string | null;
    reference?: string | null;
    notes?: string | null;
  } | null;
}

export const SUBCONTRACTOR_NAME_MIN = 2;
export const SUBCONTRACTOR_NAME_MAX = 100;

/**
 * Subcontractor create and edit (spec §5 'Subcontractor'). Create requires the UTR, the registered address
 * (line 1, city, postcode) and GDPR consent; on edit a blank UTR keeps the stored one. A NINO is checked for
 * individuals only (for other types it is ignored, and the service should not store it). Free-text fields
 * (name, address lines, verification notes) must not contain a 10-digit number or a NINO.
 */
export function validateSubcontractorInput(input: SubcontractorInput, mode: 'create' | 'edit'): FieldErrors {
  const errors: FieldErrors = {};
  const name = text(input.name);
  if (name.length < SUBCONTRACTOR_NAME_MIN) errors.name = M.name;
  else if (name.length > SUBCONTRACTOR_NAME_MAX) errors.name = M.nameTooLong;
  else if (containsPii(name)) errors.name = M.pii;

  const type = input.type ?? '';
  if (!(SUBCONTRACTOR_TYPES as readonly string[]).includes(type)) errors.type = M.subcontractorType;

  if (given(input.utr) || mode === 'create') {
    if (!validateUtr(text(input.utr)).valid) errors.utr = M.utrRequired;
  }
  if (type === 'individual' && given(input.nino) && !validateNino(text(input.nino)).valid)
    errors.nino = M.nino;
  if (given(input.companyNumber)) {
    if (!validateCompanyNumber(text(input.companyNumber)).valid) errors.companyNumber = M.companyNumber;
  } else if (type === 'company') {
    errors.companyNumber = M.companyNumberRequired;
  }
  if (given(input.vatNumber) && !validateVatNumber(text(input.vatNumber)).valid)
    errors.vatNumber = M.vatNumber;
  if (given(input.email) && !validateEmail(text(input.email)).valid) errors.email = M.email;
  if (given(input.phone) && !validatePhone(text(input.phone), 'phone').valid) errors.phone = M.phone;
  if (given(input.mobile) && !validatePhone(text(input.mobile), 'mobile').valid) errors.mobile = M.mobile;

  checkAddress(errors, 'registeredAddress', input.registeredAddress, mode === 'create');
  if (input.tradingAddressSameAsRegistered !== true) {
    checkAddress(errors, 'tradingAddress', input.tradingAddress, false);
  }
  if (mode === 'create' && input.gdprConsent !== true) errors.gdprConsent = M.gdprConsent;

  const verification = input.verification;
  if (verification) {
    const status = verification.status;
    const statusGiven = status !== undefined && status !== null && status !== '';
    if (statusGiven && !isVerificationStatus(status)) errors['verification.status'] = M.verificationStatus;
    const rate = verification.rate;
    if (rate !== undefined && rate !== null) {
      if (!(CIS_RATES as readonly unknown[]).includes(rate)) errors['verification.rate'] = M.cisRate;
      else if (isVerificationStatus(status) && verificationRate(status) !== rate) {
        errors['verification.rate'] = M.verificationRateMismatch;
      }
    }
    const method = verification.method;
    if (method && !(VERIFICATION_METHODS as readonly string[]).includes(method)) {
      errors['verification.method'] = M.verificationMethod;
    }
    if (given(verification.reference)) {
      const ref = validateVerificationNumber(text(verification.reference));
      if (!ref.valid && ref.error) errors['verification.reference'] = ref.error;
    }
    if (containsPii(text(verification.notes))) errors['verification.notes'] = M.pii;
  }
  return errors;
}

function checkAddress(
  errors: FieldErrors,
  key: string,
  address: AddressInput | null | undefined,
  required: boolean,
): void {
  const a = address ?? {};
  if (required) {
    if (!given(a.line1)) errors[`${key}.line1`] = M.addressLine1;
    if (!given(a.city)) errors[`${key}.city`] = M.city;
    if (!given(a.postcode)) errors[`${key}.postcode`] = M.postcode;
  }
  if (given(a.postcode) && !validatePostcode(text(a.postcode)).valid)
    errors[`${key}.postcode`] = M.postcodeInvalid;
  if (given(a.country) && !['GB', 'NI'].includes(text(a.country).toUpperCase()))
    errors[`${key}.country`] = M.country;
  for (const field of ['line1', 'line2', 'city', 'county'] as const) {
    if (!errors[`${key}.${field}`] && containsPii(text(a[field]))) errors[`${key}.${field}`] = M.pii;
  }
}

/**
 * Warnings beside a subcontractor's fields (saving is allowed): a UTR or VAT number failing HMRC's check digit,
 * a NINO HMRC never issues or a temporary one, a company number Companies House does not use. Keyed like the errors.
 */
export function subcontractorWarnings(input: SubcontractorInput): FieldErrors {
  const warnings: FieldErrors = {};
  const utr = given(input.utr) ? utrWarning(text(input.utr)) : null;
  if (utr) warnings.utr = utr;
  const vat = given(input.vatNumber) ? vatNumberWarning(text(input.vatNumber)) : null;
  if (vat) warnings.vatNumber = vat;
  const nino =
    input.type === 'individual' && given(input.nino) ? validateNino(text(input.nino)).warning : null;
  if (nino) warnings.nino = nino;
  const company =
    input.type === 'company' && given(input.companyNumber)
      ? validateCompanyNumber(text(input.companyNumber)).warning
      : null;
  if (company) warnings.companyNumber = company;
  return warnings;
}

// ---- CIS settings --------------------------------------------------------------------------------------

export const VAT_SCHEMES = ['standard', 'reduced', 'zero', 'flat'] as const;
export type VatScheme = (typeof VAT_SCHEMES)[number];

export interface CisSettingsInput {
  active?: boolean | null;
  companyName?: string | null;
  employerRef?: string | null;
  accountsOfficeRef?: string | null;
  utr?: string | null;
  vatScheme?: string | null;
  emailStatements?: boolean | null;
  warningDays?: number | null;
  statementDeadlineDays?: number | null;
  emailFrom?: string | null;
  emailReplyTo?: string | null;
  statementFooter?: string | null;
}

/** Defaults when no settings exist or loading fails (spec §3, §4 'Settings'). */
export const DEFAULT_CIS_SETTINGS = {
  active: false,
  companyName: '',
  employerRef: '',
  accountsOfficeRef: '',
  vatScheme: 'standard',
  emailStatements: true,
  warningDays: 3,
  statementDeadlineDays: 14,
  emailFrom: '',
  emailReplyTo: '',
  statementFooter: '',
} as const;

export const WARNING_DAYS_MIN = 0;
export const WARNING_DAYS_MAX = 30;
export const STATEMENT_DEADLINE_DAYS_MIN = 1;
export const STATEMENT_DEADLINE_DAYS_MAX = 30;

const intBetween = (value: unknown, min: number, max: number): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/**
 * The settings form (spec §5 'CIS settings'). Company name 2–100 characters; employer and Accounts Office
 * references and the UTR are optional here but checked when given (settingsReadyIssues requires them);
 * warningDays 0–30 (0 = alert on the due day only); statementDeadlineDays 1–30; emails when given.
 */
export function validateSettingsInput(input: CisSettingsInput): FieldErrors {
  const errors: FieldErrors = {};
  const companyName = text(input.companyName);
  if (companyName.length < 2) errors.companyName = M.companyName;
  else if (companyName.length > 100) errors.companyName = M.companyNameTooLong;
  if (given(input.employerRef) && !validateEmployerRef(text(input.employerRef)).valid) {
    errors.employerRef = M.employerRef;
  }
  if (given(input.accountsOfficeRef) && !validateAccountsOfficeRef(text(input.accountsOfficeRef)).valid) {
    errors.accountsOfficeRef = M.accountsOfficeRef;
  }
  if (given(input.utr) && !validateUtr(text(input.utr)).valid) errors.utr = M.settingsUtr;
  if (input.vatScheme && !(VAT_SCHEMES as readonly string[]).includes(input.vatScheme))
    errors.vatScheme = M.vatScheme;
  if (input.warningDays !== undefined && !intBetween(input.warningDays, WARNING_DAYS_MIN, WARNING_DAYS_MAX)) {
    errors.warningDays = M.warningDays;
  }
  if (
    input.statementDeadlineDays !== undefined &&
    !intBetween(input.statementDeadlineDays, STATEMENT_DEADLINE_DAYS_MIN, STATEMENT_DEADLINE_DAYS_MAX)
  ) {
    errors.statementDeadlineDays = M.statementDeadlineDays;
  }
  if (given(input.emailFrom) && !validateEmail(text(input.emailFrom)).valid) errors.emailFrom = M.email;
  if (given(input.emailReplyTo) && !validateEmail(text(input.emailReplyTo)).valid)
    errors.emailReplyTo = M.email;
  return errors;
}

/** Warnings beside the contractor's references (saving is allowed): UTR check digit, Accounts Office check letter. */
export function settingsWarnings(input: CisSettingsInput): FieldErrors {
  const warnings: FieldErrors = {};
  const utr = given(input.utr) ? utrWarning(text(input.utr)) : null;
  if (utr) warnings.utr = utr;
  const ao = given(input.accountsOfficeRef) ? accountsOfficeRefWarning(text(input.accountsOfficeRef)) : null;
  if (ao) warnings.accountsOfficeRef = ao;
  return warnings;
}

export interface SettingsReadiness {
  companyName?: string | null;
  employerRef?: string | null;
  accountsOfficeRef?: string | null;
  /** The entered UTR, if the caller has it in clear. */
  utr?: string | null;
  /** The stored, encrypted UTR: its presence is enough. */
  utr_enc?: string | null;
}

/**
 * The service-level check before compiling or submitting a return: the contractor details the CIS300
 * needs (Contractor UTR and AOref; the employer reference is the GovTalk key).
 */
export function settingsReadyIssues(settings: SettingsReadiness | null | undefined): string[] {
  const s = settings ?? {};
  const issues: string[] = [];
  if (text(s.companyName).length < 2) issues.push('Company name is required');
  if (!given(s.employerRef)) issues.push('Employer reference is required');
  else if (!validateEmployerRef(text(s.employerRef)).valid) issues.push('Invalid employer reference format');
  if (!given(s.accountsOfficeRef)) issues.push('Accounts office reference is required');
  else if (!validateAccountsOfficeRef(text(s.accountsOfficeRef)).valid)
    issues.push('Invalid accounts office reference');
  if (given(s.utr)) {
    if (!validateUtr(text(s.utr)).valid) issues.push(M.settingsUtr);
  } else if (!given(s.utr_enc)) {
    issues.push('Contractor UTR is required');
  }
  return issues;
}
