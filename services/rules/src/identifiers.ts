// Identifier validators (cis spec §5 'Subcontractor' and 'CIS settings'; HMRC notes §1.6, §1.9), browser-safe so the
// forms warn with the same rules the cis service applies.
// Each returns { valid, normalised, error } plus extras. `valid` follows the spec's format rule; HMRC's
// check digits are reported separately (checksumValid / checkCharacterValid) and never block a save,
// because the spec says "checksum computed but not enforced".

import { containsTaxIdentifier } from './masking.js';

export interface IdentifierResult {
  valid: boolean;
  /** The cleaned value to store (even when invalid, so forms can show what was checked). */
  normalised: string;
  error: string | null;
}

export interface UtrResult extends IdentifierResult {
  /** HMRC modulus-11 check (first digit is the check digit). */
  checksumValid: boolean;
}

export interface NinoResult extends IdentifierResult {
  /** Set when the number matches the format but HMRC never issues it, or it is a temporary number. */
  warning: string | null;
  temporary: boolean;
}

export interface CompanyNumberResult extends IdentifierResult {
  warning: string | null;
}

export interface VatNumberResult extends IdentifierResult {
  /** mod-97 or mod-9755 on the first 9 digits (hmrc/agent-mtd-identifiers VrnValidation). */
  checksumValid: boolean;
}

export interface AccountsOfficeRefResult extends IdentifierResult {
  /** HMRC modulus-23 check letter (5th character) and the 961-office rules (hmrc/reference-checker). */
  checkCharacterValid: boolean;
}

export interface VerificationNumberResult extends IdentifierResult {
  /** A 1–2 letter suffix means HMRC could not match the subcontractor (30% rate). */
  unmatched: boolean;
}

export const IDENTIFIER_MESSAGES = {
  utr: 'Valid UTR required (10 digits)',
  nino: 'Invalid NINO format',
  companyNumber: 'Invalid company number',
  vatNumber: 'Invalid VAT number format',
  employerRef: 'Invalid format (e.g., 123/AB12345)',
  accountsOfficeRef: 'Invalid format (e.g., 123PA00012345)',
  verificationNumber: 'Invalid verification number (e.g., V1234567890 or V1234567890AB)',
  email: 'Invalid email format',
  phone: 'Invalid phone number format',
  mobile: 'Invalid mobile format',
  postcode: 'Invalid UK postcode (e.g., SW1A 1AA)',
} as const;

/**
 * Warnings beside a field whose value has the right shape but fails HMRC's check digit (HMRC notes §1.9): saving
 * is allowed (the spec computes check digits without enforcing them), but HMRC rejects a return carrying the value.
 */
export const IDENTIFIER_WARNINGS = {
  utr: 'This UTR fails HMRC’s check digit test: check it against HMRC’s letter, as HMRC rejects a return carrying it',
  vatNumber:
    'This VAT number fails HMRC’s check digit test: check it with the subcontractor or HMRC’s VAT number checker',
  accountsOfficeRef:
    'This Accounts Office reference fails HMRC’s check letter test: check it against HMRC’s letter, as HMRC rejects a return carrying it',
} as const;

const ok = (normalised: string): IdentifierResult => ({ valid: true, normalised, error: null });
const bad = (normalised: string, error: string): IdentifierResult => ({ valid: false, normalised, error });
const str = (input: unknown): string => (typeof input === 'string' ? input : '');
const stripSpaces = (input: unknown): string => str(input).replace(/\s+/g, '');

// ---- UTR -----------------------------------------------------------------------------------------------

const UTR_WEIGHTS = [6, 7, 8, 9, 10, 5, 4, 3, 2] as const;
const UTR_CHECK_TABLE = [2, 1, 9, 8, 7, 6, 5, 4, 3, 2, 1] as const;

/** HMRC modulus-11: check digit (first) = table[Σ weights × digits 2–10 mod 11] (hmrc/reference-checker). */
export function utrChecksumValid(utr: string): boolean {
  if (!/^\d{10}$/.test(utr)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(utr[i + 1]) * (UTR_WEIGHTS[i] ?? 0);
  return UTR_CHECK_TABLE[sum % 11] === Number(utr[0]);
}

/** UTR: 10 digits, spaces ignored, an SA 'K' before or after accepted and dropped. */
export function validateUtr(input: string): UtrResult {
  let normalised = stripSpaces(input).toUpperCase();
  if (/^K\d{10}$/.test(normalised)) normalised = normalised.slice(1);
  else if (/^\d{10}K$/.test(normalised)) normalised = normalised.slice(0, 10);
  if (!/^\d{10}$/.test(normalised))
    return { ...bad(normalised, IDENTIFIER_MESSAGES.utr), checksumValid: false };
  return { ...ok(normalised), checksumValid: utrChecksumValid(normalised) };
}

// ---- NINO ----------------------------------------------------------------------------------------------

/** Spec §5 pattern: first letter not D F I Q U V; second not D F I O Q U V; 6 digits; suffix A–D. */
const NINO_RE = /^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/;
/** Prefixes HMRC never issues (NIM39110; hmrc/domain Nino.scala). */
export const NINO_NEVER_ISSUED_PREFIXES = ['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ'] as const;
/** The old temporary reference: TN, date of birth DDMMYY, then M or F. */
const OLD_TEMPORARY_NINO_RE = /^TN\d{6}[MF]$/;

const TEMPORARY_NINO_WARNING =
  'This is a temporary reference number (starting TN), which HMRC cannot verify; ask for the permanent National Insurance number';

/** NINO: spaces removed, uppercased, spec §5 pattern; warns for never-issued prefixes and temporary numbers. */
export function validateNino(input: string): NinoResult {
  const normalised = stripSpaces(input).toUpperCase();
  const temporary =
    normalised.startsWith('TN') && (NINO_RE.test(normalised) || OLD_TEMPORARY_NINO_RE.test(normalised));
  const prefix = normalised.slice(0, 2);
  let warning: string | null = null;
  if (temporary) warning = TEMPORARY_NINO_WARNING;
  else if (NINO_RE.test(normalised) && (NINO_NEVER_ISSUED_PREFIXES as readonly string[]).includes(prefix)) {
    warning = `HMRC never issues NINOs starting ${prefix}; this one cannot be verified`;
  }
  if (!NINO_RE.test(normalised)) return { ...bad(normalised, IDENTIFIER_MESSAGES.nino), warning, temporary };
  return { ...ok(normalised), warning, temporary };
}

// ---- Company number (CRN) ------------------------------------------------------------------------------

/** Companies House prefixes followed by 6 digits (https://chguide.co.uk/general/company-number.html). */
export const COMPANY_NUMBER_PREFIXES = [
  'AC', 'CE', 'CS', 'FC', 'FE', 'GE', 'GN', 'GS', 'IC', 'IP', 'LP', 'NA', 'NC', 'NF', 'NI', 'NL', 'NO', 'NP',
  'NR', 'NV', 'NZ', 'OC', 'OE', 'PC', 'R0', 'RC', 'RS', 'SA', 'SC', 'SE', 'SF', 'SG', 'SI', 'SL', 'SO', 'SP',
  'SR', 'SZ', 'ZC',
] as const; // prettier-ignore

/** Company number: 8 letters/digits after removing spaces and uppercasing; warns if not a CH pattern. */
export function validateCompanyNumber(input: string): CompanyNumberResult {
  const normalised = stripSpaces(input).toUpperCase();
  if (!/^[A-Z0-9]{8}$/.test(normalised)) {
    return { ...bad(normalised, IDENTIFIER_MESSAGES.companyNumber), warning: null };
  }
  const known =
    /^\d{8}$/.test(normalised) ||
    ((COMPANY_NUMBER_PREFIXES as readonly string[]).includes(normalised.slice(0, 2)) &&
      /^\d{6}$/.test(normalised.slice(2)));
  return {
    ...ok(normalised),
    warning: known
      ? null
      : 'This is not a usual Companies House number (8 digits, or 2 letters such as SC, NI or OC and 6 digits)',
  };
}

// ---- VAT registration number ---------------------------------------------------------------------------

const VRN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2] as const;

/** HMRC VRN check on the first 9 digits: mod-97 or mod-9755, remainder 0 counting as 97. */
export function vatChecksumValid(digits: string): boolean {
  if (!/^\d{9}(\d{3})?$/.test(digits)) return false;
  let total = 0;
  for (let i = 0; i < 7; i++) total += Number(digits[i]) * (VRN_WEIGHTS[i] ?? 0);
  const check = Number(digits.slice(7, 9));
  const expected = (t: number): number => (t % 97 === 0 ? 97 : 97 - (t % 97));
  return check === expected(total) || check === expected(total + 55);
}

/** VAT number: optional GB prefix then 9 or 12 digits (12 = branch); normalised without GB or spaces. */
export function validateVatNumber(input: string): VatNumberResult {
  const cleaned = stripSpaces(input).toUpperCase();
  const normalised = cleaned.startsWith('GB') ? cleaned.slice(2) : cleaned;
  if (!/^(\d{9}|\d{12})$/.test(normalised)) {
    return { ...bad(normalised, IDENTIFIER_MESSAGES.vatNumber), checksumValid: false };
  }
  return { ...ok(normalised), checksumValid: vatChecksumValid(normalised) };
}

// ---- Employer (PAYE) reference -------------------------------------------------------------------------

/**
 * Employer reference: 3 digits, '/', 2–10 uppercase letters or digits. One rule for both spec readings:
 * the schema's '123/AB12345' (2 capitals + 5 digits) is a subset of the form's 2–10 alphanumerics.
 */
export function validateEmployerRef(input: string): IdentifierResult {
  const normalised = str(input).trim().toUpperCase();
  return /^\d{3}\/[A-Z0-9]{2,10}$/.test(normalised)
    ? ok(normalised)
    : bad(normalised, IDENTIFIER_MESSAGES.employerRef);
}

// ---- Accounts Office reference -------------------------------------------------------------------------

const AO_WEIGHTS = [9, 10, 11, 12, 0, 8, 7, 6, 5, 4, 3, 2, 1] as const;
/** Letter values of hmrc/reference-checker EpayeReferenceChecker (note X=41, Y=47, U=56). */
const AO_LETTER_VALUES: Readonly<Record<string, number>> = {
  A: 33, B: 34, C: 35, D: 36, E: 37, F: 38, G: 39, H: 40, J: 42, K: 43, L: 44, M: 45, N: 46, P: 48, Q: 49,
  R: 50, S: 51, T: 52, U: 56, V: 54, W: 55, X: 41, Y: 47, Z: 53,
}; // prettier-ignore
const AO_CHECK_LETTERS = 'ABCDEFGHXJKLMNYPQRSTZVW';
/** HMRC's shape (hmrc/reference-checker): 3 digits, P, a letter, 6 digits, 2 letters or digits. */
const AO_RE = /^\d{3}P[A-Z]\d{6}[A-Z0-9]{2}$/;

/** HMRC's mod-23 check letter plus the Accounts Office 961 rules. */
export function accountsOfficeCheckValid(ref: string): boolean {
  if (!AO_RE.test(ref)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) {
    const ch = ref.charAt(i);
    const value = /\d/.test(ch) ? Number(ch) : AO_LETTER_VALUES[ch];
    if (value === undefined) return false; // I and O have no value: HMRC rejects them
    sum += value * (AO_WEIGHTS[i] ?? 0);
  }
  if (AO_CHECK_LETTERS[sum % 23] !== ref.charAt(4)) return false;
  if (ref.startsWith('961')) {
    return ref.charAt(12) === 'X' ? ref.charAt(5) === '0' : /^961P[A-Z]\d{8}$/.test(ref);
  }
  return true;
}

/** Accounts Office reference, 13 characters, e.g. 123PA00012345 or 961PA0045782X; spaces removed. */
export function validateAccountsOfficeRef(input: string): AccountsOfficeRefResult {
  const normalised = stripSpaces(input).toUpperCase();
  if (!AO_RE.test(normalised)) {
    return { ...bad(normalised, IDENTIFIER_MESSAGES.accountsOfficeRef), checkCharacterValid: false };
  }
  return { ...ok(normalised), checkCharacterValid: accountsOfficeCheckValid(normalised) };
}

// ---- Verification number -------------------------------------------------------------------------------

/** HMRC verification number: V + 10 digits + 0–2 letters other than I and O (CISverification XSD). */
export function validateVerificationNumber(input: string): VerificationNumberResult {
  const normalised = stripSpaces(input).toUpperCase();
  const m = /^V\d{10}([A-HJ-NP-Z]{0,2})$/.exec(normalised);
  if (!m) return { ...bad(normalised, IDENTIFIER_MESSAGES.verificationNumber), unmatched: false };
  return { ...ok(normalised), unmatched: (m[1] ?? '').length > 0 };
}

// ---- Email and phone -----------------------------------------------------------------------------------

/** Simple email pattern (spec §5): something@something.tld, no spaces; trimmed. */
export function validateEmail(input: string): IdentifierResult {
  const normalised = str(input).trim();
  return /^[^\s@]+@[^\s@]+\.[^\s@.]+$/.test(normalised) && normalised.length <= 254
    ? ok(normalised)
    : bad(normalised, IDENTIFIER_MESSAGES.email);
}

/** UK phone: +44, 0044 or 0 then 9–10 more digits; spaces, dashes, dots and brackets ignored. */
export function validatePhone(input: string, kind: 'phone' | 'mobile' = 'phone'): IdentifierResult {
  const normalised = str(input).replace(/[\s\-().]/g, '');
  return /^(?:\+44|0044|0)\d{9,10}$/.test(normalised)
    ? ok(normalised)
    : bad(normalised, kind === 'mobile' ? IDENTIFIER_MESSAGES.mobile : IDENTIFIER_MESSAGES.phone);
}

// ---- Warnings beside the fields ------------------------------------------------------------------------

/** The UTR's warning: only for a well-formed UTR whose check digit fails (a malformed one is an error instead). */
export function utrWarning(input: string): string | null {
  const result = validateUtr(input);
  return result.valid && !result.checksumValid ? IDENTIFIER_WARNINGS.utr : null;
}

/** The VAT number's warning: a well-formed number failing both mod-97 and mod-9755. */
export function vatNumberWarning(input: string): string | null {
  const result = validateVatNumber(input);
  return result.valid && !result.checksumValid ? IDENTIFIER_WARNINGS.vatNumber : null;
}

/** The Accounts Office reference's warning: a well-formed reference whose mod-23 check letter fails. */
export function accountsOfficeRefWarning(input: string): string | null {
  const result = validateAccountsOfficeRef(input);
  return result.valid && !result.checkCharacterValid ? IDENTIFIER_WARNINGS.accountsOfficeRef : null;
}

// ---- UK postcode ---------------------------------------------------------------------------------------

/** Outward code (area letters, district digit, optional digit or letter), inward code (digit, two letters). */
const POSTCODE_RE = /^[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}$/;

/**
 * A UK postcode (Northern Ireland's BT ones included): spaces removed, upper case, then one space before the
 * inward code ('sw1a1aa' → 'SW1A 1AA'); GIR 0AA is accepted. The normalised value keeps what was typed when it is
 * not a postcode, so a form can show what was checked.
 */
export function validatePostcode(input: string): IdentifierResult {
  const compact = stripSpaces(input).toUpperCase();
  if (compact === 'GIR0AA') return ok('GIR 0AA');
  if (!POSTCODE_RE.test(compact)) return bad(str(input).trim().toUpperCase(), IDENTIFIER_MESSAGES.postcode);
  return ok(`${compact.slice(0, -3)} ${compact.slice(-3)}`);
}

/** The postcode as stored: normalised when it is one, else as typed (trimmed); blank stays blank. */
export const normalisePostcode = (input: string): string => validatePostcode(input).normalised;

// ---- PII in free text ----------------------------------------------------------------------------------

/** True when text holds a UTR-shaped number or a NINO pattern (spaces allowed, any case): @workspace/rules' rule. */
export const containsPii = (text: string): boolean => containsTaxIdentifier(str(text));
