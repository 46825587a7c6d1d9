// The CIS300 monthly return in HMRC's XML (namespace http://www.govtalk.gov.uk/taxation/CISreturn), valid
// against HMRC's schema services/cis/xsd/CISreturn-v1-2.xsd (+ core-v2-0.xsd), and the GovTalk envelope
// HMRC's Transaction Engine takes (class IR-CIS-CIS300MR), with the IRmark.
//
// What the XSD requires beyond the spec (see also hmrc-cis-notes §1.7):
//   - The schema's only root is IRenvelope: an IRheader (PeriodEnd YYYY-MM-05 and Sender are required) and
//     then CISreturn. A bare <CISreturn> is not a valid document, so buildCis300Return returns the
//     IRenvelope; buildCis300Envelope wraps it in <GovTalkMessage><Body>.
//   - Contractor: UTR (10 digits) and AOref (13 characters, [0-9]{3}P[A-Za-z][A-Za-z0-9]{8}).
//   - A subcontractor is Name{Ttl?, Fore 1–2, Sur} or TradingName (≤ 56, PAYE character set, no leading
//     space); Fore is letters, apostrophe and hyphen only (no spaces, no accents), ≤ 35; Sur ≤ 35 of
//     [A-Za-z0-9 ,.()/&-'].
//   - Element order is fixed: name, WorksRef?, UnmatchedRate?, UTR?, CRN?, NINO?, VerificationNumber?,
//     TotalPayments, CostOfMaterials, TotalDeducted.
//   - TotalPayments and CostOfMaterials are whole pounds written 'NNN.00' (we round DOWN, as HMRC's UI
//     says), TotalDeducted is pounds and pence, all non-negative and ≤ 99999999.99.
//   - NINO is 2 letters + 6 digits + A–D or a space (9 characters); CRN is 2 letters + 1–6 digits or
//     1–8 digits; VerificationNumber is V + 10 digits + 0–2 letters (no I or O).
//   - Declarations: InformationCorrect=yes is required; EmploymentStatus and Verification are yes/no;
//     Inactivity=yes is optional. A nil return is NilReturn=yes with no subcontractors.
//
// Choices (the XSD allows more):
//   - An individual's name is split into Ttl/Fore/Sur; a one-word name, or one with no usable forename,
//     is sent as TradingName. Companies and partnerships always use TradingName (tradingName ?? name).
//     Characters outside HMRC's sets are transliterated (é → e, ’ → ') or dropped; long values truncated.
//   - UnmatchedRate=yes is written for a line at the higher (30 %) rate; the verification number is written
//     only for such lines (HMRC asks for it only at the higher rate).
//   - NINO is sent for individuals and partnerships, CRN for companies and partnerships.
//   - A nil return carries only InformationCorrect (and Inactivity); a standard return also carries
//     EmploymentStatus and Verification.
// Anything that cannot be made valid (bad UTR/AOref/NINO/CRN/verification number, negative or too large
// amounts, materials above payments, a nil return with lines, a standard return without) throws a
// Cis300ValidationError listing every issue, lines numbered from 1.

import { create } from 'xmlbuilder2';

import { toCis300Amounts } from '../domain/index.js';
import { CIS_RETURN_NS, GOVTALK_ENVELOPE_NS, computeIrMark } from './irmark.js';

export { CIS_RETURN_NS, GOVTALK_ENVELOPE_NS, computeIrMark, canonicalGovTalkBody } from './irmark.js';

type XMLBuilder = ReturnType<typeof create>;

export const CIS300_MESSAGE_CLASS = 'IR-CIS-CIS300MR';
export const CIS300_SCHEMA_VERSION = '2005-v1.1';

export type Cis300SubcontractorType = 'individual' | 'company' | 'partnership';
export type Cis300Sender =
  | 'Individual'
  | 'Company'
  | 'Agent'
  | 'Bureau'
  | 'Partnership'
  | 'Trust'
  | 'Employer'
  | 'Government'
  | 'Acting in Capacity'
  | 'Other';

export interface Cis300Line {
  /** The subcontractor's name: a person's full name for individuals, else the business name. */
  name: string;
  /** Companies and partnerships: the trading name to file (defaults to `name`). */
  tradingName?: string | null;
  /** Defaults to 'company' when a CRN is given, else 'individual'. */
  type?: Cis300SubcontractorType | null;
  utr?: string | null;
  crn?: string | null;
  nino?: string | null;
  verificationNumber?: string | null;
  /** The contractor's own works reference for this subcontractor (≤ 20 characters). */
  worksRef?: string | null;
  /** True when the higher (30 %) rate was applied (HMRC: 'unmatched'). */
  unmatchedRate: boolean;
  totalPaymentsP: number;
  costOfMaterialsP: number;
  totalDeductedP: number;
}

export interface Cis300ReturnInput {
  contractor: {
    utr: string;
    accountsOfficeRef: string;
    /** Employer's reference '123/AB12345'; when given the IRheader carries the tax office Keys. */
    employerRef?: string | null;
  };
  /** HMRC's PeriodEnd, 'YYYY-MM-05' (taxMonthPeriod(label).periodEnd). */
  periodEnd: string;
  nil: boolean;
  /** Tell HMRC no payments will be made in the next 6 months. */
  inactivity?: boolean;
  lines: readonly Cis300Line[];
  declarations: { employmentStatus: boolean; verification: boolean; informationCorrect: boolean };
  /** IRheader Sender; default 'Company'. */
  sender?: Cis300Sender;
}

export interface Cis300EnvelopeInput extends Cis300ReturnInput {
  /** From the employer reference '123/AB12345' → '123' (or give contractor.employerRef). */
  taxOfficeNumber?: string;
  /** From the employer reference '123/AB12345' → 'AB12345'. */
  taxOfficeReference?: string;
  /** GovTalk CorrelationID; empty on a first submission (the gateway assigns one). */
  correlationId?: string;
  /** GovTalk GatewayTimestamp, if the caller stamps one. */
  gatewayTimestamp?: string;
  /** GatewayTest=1: a test-in-live submission. */
  gatewayTest?: boolean;
  /** GovTalk ChannelRouting of the submitting software (omitted when not given). */
  channel?: { uri: string; product: string; version: string };
  /** Compute and insert HMRC's IRmark (default true). */
  irMark?: boolean;
}

export class Cis300ValidationError extends Error {
  readonly issues: readonly string[];
  constructor(issues: readonly string[]) {
    super(`CIS300 return is not valid: ${issues.join('; ')}`);
    this.name = 'Cis300ValidationError';
    this.issues = issues;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Character sets (core-v2-0.xsd).

const PAYE_CHAR = /[A-Za-z0-9 ~!"@#$%&'()*+,\-./:;<=>?[\\\]^_{}£€]/u;
const SUR_CHAR = /[A-Za-z0-9 ,.()/&\-']/;
const FORE_CHAR = /[A-Za-z'-]/;
const TITLES = new Set(['MR', 'MRS', 'MS', 'MISS', 'MX', 'DR', 'PROF', 'REV', 'SIR', 'LADY', 'LORD', 'DAME']);
const SURNAME_PARTICLES = new Set([
  'van',
  'von',
  'de',
  'der',
  'den',
  'da',
  'das',
  'di',
  'du',
  'del',
  'della',
  'la',
  'le',
  'st',
  'ter',
  'ten',
  'mac',
  'bin',
  'al',
]);

const TRANSLITERATE: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u2032': "'",
  '`': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2212': '-',
  '\u00A0': ' ',
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  þ: 'th',
  Þ: 'Th',
  ð: 'd',
  Ð: 'D',
};

/** Latin letters without diacritics, typographic quotes and dashes made ASCII; £ and € are kept. */
function transliterate(value: string): string {
  return value
    .replace(
      /[\u2018\u2019\u201A\u2032`\u201C\u201D\u2013\u2014\u2212\u00A0ßæÆœŒøØłŁđĐþÞðÐ]/g,
      (c) => TRANSLITERATE[c] ?? c,
    )
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function keep(value: string, allowed: RegExp): string {
  return Array.from(value)
    .filter((c) => allowed.test(c))
    .join('');
}

function truncate(value: string, max: number): string {
  return Array.from(value).slice(0, max).join('').trimEnd();
}

/** A TradingName/WorksRef value in the PAYE character set, at most `max` characters, no leading space. */
export function toPayeString(value: string, max: number): string {
  return truncate(keep(transliterate(value), PAYE_CHAR).replace(/\s+/g, ' ').trim(), max);
}

export interface Cis300PersonName {
  title?: string;
  forenames: string[];
  surname: string;
}

/**
 * Splits an individual's name into HMRC's NameStructure (Ttl?, Fore 1–2, Sur); null when it cannot be
 * (a single word, or no usable forename/surname). A leading title (Mr, Mrs, Dr…) becomes Ttl; surname
 * particles ('van der', 'de', 'St') stay with the surname; more than two forenames keep the first two.
 */
export function splitPersonName(fullName: string): Cis300PersonName | null {
  const tokens = transliterate(fullName)
    .split(' ')
    .map((token) => keep(token, SUR_CHAR))
    .filter((token) => /[A-Za-z]/.test(token)); // words without a letter ('|', '★', '&') are dropped
  let title: string | undefined;
  const first = tokens[0]?.replace(/\.$/, '');
  if (tokens.length > 2 && first && TITLES.has(first.toUpperCase())) {
    title = first.charAt(0).toUpperCase() + first.slice(1).toLowerCase();
    tokens.shift();
  }
  if (tokens.length < 2) return null;
  let surnameStart = tokens.length - 1;
  while (surnameStart > 1 && SURNAME_PARTICLES.has((tokens[surnameStart - 1] ?? '').toLowerCase())) {
    surnameStart -= 1;
  }
  const surname = truncate(keep(tokens.slice(surnameStart).join(' '), SUR_CHAR).trim(), 35);
  const forenames = tokens
    .slice(0, surnameStart)
    .map((token) => truncate(keep(token, FORE_CHAR).replace(/^[^A-Za-z]+/, ''), 35))
    .filter(Boolean)
    .slice(0, 2);
  if (!surname || forenames.length === 0) return null;
  return title ? { title, forenames, surname } : { forenames, surname };
}

/** '123/AB12345' → { taxOfficeNumber: '123', taxOfficeReference: 'AB12345' }. */
export function splitEmployerRef(employerRef: string): {
  taxOfficeNumber: string;
  taxOfficeReference: string;
} {
  const match = /^(\d{3})\/([A-Z0-9]{1,10})$/.exec(employerRef.replace(/\s+/g, '').toUpperCase());
  if (!match) throw new Cis300ValidationError([`Invalid employer reference: ${employerRef}`]);
  return { taxOfficeNumber: match[1] ?? '', taxOfficeReference: match[2] ?? '' };
}

// ---------------------------------------------------------------------------------------------------------
// Validation and normalisation.

const UTR = /^\d{10}$/;
const AOREF = /^[0-9]{3}P[A-Za-z][A-Za-z0-9]{8}$/;
const CRN = /^(?:[A-Za-z]{2}[0-9]{1,6}|[0-9]{1,8})$/;
const NINO = /^[ABCEGHJKLMNOPRSTWXYZ][ABCEGHJKLMNPRSTWXYZ][0-9]{6}[A-D ]$/;
const VERIFICATION = /^V[0-9]{10}[A-HJ-NP-Z]{0,2}$/;

const normaliseUtr = (value: string): string => value.replace(/[\sK]/gi, '');

interface PreparedLine {
  name: { kind: 'person'; value: Cis300PersonName } | { kind: 'trading'; value: string };
  worksRef?: string;
  unmatched: boolean;
  utr?: string;
  crn?: string;
  nino?: string;
  verificationNumber?: string;
  amounts: { totalPayments: string; costOfMaterials: string; totalDeducted: string };
}

function blank(value: string | null | undefined): value is null | undefined | '' {
  return value === null || value === undefined || value.trim() === '';
}

function prepareLine(line: Cis300Line, n: number, issues: string[]): PreparedLine | null {
  const before = issues.length;
  const type: Cis300SubcontractorType = line.type ?? (blank(line.crn) ? 'individual' : 'company');

  let name: PreparedLine['name'] | null = null;
  if (type === 'individual') {
    const person = splitPersonName(line.name);
    if (person) name = { kind: 'person', value: person };
  }
  if (!name) {
    const trading = toPayeString(
      type === 'individual' ? line.name : blank(line.tradingName) ? line.name : line.tradingName,
      56,
    );
    if (trading) name = { kind: 'trading', value: trading };
    else issues.push(`Line ${n}: the subcontractor name has no characters HMRC accepts`);
  }

  let utr: string | undefined;
  if (!blank(line.utr)) {
    utr = normaliseUtr(line.utr);
    if (!UTR.test(utr)) issues.push(`Line ${n}: invalid UTR (10 digits required)`);
  }
  let crn: string | undefined;
  if (!blank(line.crn) && type !== 'individual') {
    crn = line.crn.replace(/\s+/g, '').toUpperCase();
    if (!CRN.test(crn)) issues.push(`Line ${n}: invalid company registration number for HMRC (${crn})`);
  }
  let nino: string | undefined;
  if (!blank(line.nino) && type !== 'company') {
    nino = line.nino.replace(/\s+/g, '').toUpperCase();
    if (nino.length === 8) nino += ' '; // a NINO without its suffix letter: the XSD takes a space
    if (!NINO.test(nino)) issues.push(`Line ${n}: invalid National Insurance number`);
  }
  let verificationNumber: string | undefined;
  if (line.unmatchedRate && !blank(line.verificationNumber)) {
    verificationNumber = line.verificationNumber.replace(/\s+/g, '').toUpperCase();
    if (!VERIFICATION.test(verificationNumber)) {
      issues.push(`Line ${n}: invalid verification number (V, 10 digits, up to 2 letters)`);
    }
  }
  const worksRef = blank(line.worksRef) ? '' : toPayeString(line.worksRef, 20);

  let amounts: PreparedLine['amounts'] | null = null;
  try {
    amounts = toCis300Amounts(line);
  } catch (error) {
    issues.push(`Line ${n}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (amounts && line.costOfMaterialsP > line.totalPaymentsP) {
    issues.push(`Line ${n}: Materials exceed gross amount`);
  }

  if (issues.length > before || !name || !amounts) return null;
  return {
    name,
    unmatched: line.unmatchedRate,
    amounts,
    ...(worksRef ? { worksRef } : {}),
    ...(utr ? { utr } : {}),
    ...(crn ? { crn } : {}),
    ...(nino ? { nino } : {}),
    ...(verificationNumber ? { verificationNumber } : {}),
  };
}

interface Prepared {
  utr: string;
  aoRef: string;
  periodEnd: string;
  keys: { taxOfficeNumber: string; taxOfficeReference: string } | null;
  lines: PreparedLine[];
}

function prepare(input: Cis300ReturnInput, keys: Prepared['keys'] | undefined): Prepared {
  const issues: string[] = [];
  const utr = normaliseUtr(input.contractor.utr);
  if (!UTR.test(utr)) issues.push('Contractor UTR must be 10 digits');
  const aoRef = input.contractor.accountsOfficeRef.replace(/\s+/g, '').toUpperCase();
  if (!AOREF.test(aoRef)) issues.push('Invalid accounts office reference (e.g. 123PA00012345)');
  const periodMatch = /^(\d{4})-(\d{2})-05$/.exec(input.periodEnd);
  const periodMonth = Number(periodMatch?.[2] ?? 0);
  if (!periodMatch || periodMonth < 1 || periodMonth > 12) {
    issues.push(`Invalid period end ${input.periodEnd} (expected YYYY-MM-05)`);
  }
  if (!input.declarations.informationCorrect) {
    issues.push('The information-correct declaration is required');
  }
  if (input.nil && input.lines.length > 0) issues.push('A nil return cannot have subcontractor lines');
  if (!input.nil && input.lines.length === 0)
    issues.push('Return must have at least one line or be marked as nil');

  let resolvedKeys: Prepared['keys'] = keys ?? null;
  if (!resolvedKeys && !blank(input.contractor.employerRef)) {
    try {
      resolvedKeys = splitEmployerRef(input.contractor.employerRef);
    } catch (error) {
      issues.push(...(error instanceof Cis300ValidationError ? error.issues : [String(error)]));
    }
  }

  const lines: PreparedLine[] = [];
  input.lines.forEach((line, index) => {
    const prepared = prepareLine(line, index + 1, issues);
    if (prepared) lines.push(prepared);
  });
  if (issues.length > 0) throw new Cis300ValidationError(issues);
  return { utr, aoRef, periodEnd: input.periodEnd, keys: resolvedKeys, lines };
}

// ---------------------------------------------------------------------------------------------------------
// XML.

const yesNo = (value: boolean): string => (value ? 'yes' : 'no');

function writeIrEnvelope(
  parent: XMLBuilder,
  input: Cis300ReturnInput,
  prepared: Prepared,
  withIrMark: boolean,
): XMLBuilder | null {
  const envelope = parent.ele(CIS_RETURN_NS, 'IRenvelope');
  const header = envelope.ele('IRheader');
  if (prepared.keys) {
    const keys = header.ele('Keys');
    keys.ele('Key', { Type: 'TaxOfficeNumber' }).txt(prepared.keys.taxOfficeNumber);
    keys.ele('Key', { Type: 'TaxOfficeReference' }).txt(prepared.keys.taxOfficeReference);
  }
  header.ele('PeriodEnd').txt(prepared.periodEnd);
  header.ele('DefaultCurrency').txt('GBP');
  const reference = header.ele('Manifest').ele('Contains').ele('Reference');
  reference.ele('Namespace').txt(CIS_RETURN_NS);
  reference.ele('SchemaVersion').txt(CIS300_SCHEMA_VERSION);
  reference.ele('TopElementName').txt('CISreturn');
  const irMark = withIrMark ? header.ele('IRmark', { Type: 'generic' }) : null;
  header.ele('Sender').txt(input.sender ?? 'Company');

  const body = envelope.ele('CISreturn');
  const contractor = body.ele('Contractor');
  contractor.ele('UTR').txt(prepared.utr);
  contractor.ele('AOref').txt(prepared.aoRef);
  if (input.nil) body.ele('NilReturn').txt('yes');

  for (const line of prepared.lines) {
    const sub = body.ele('Subcontractor');
    if (line.name.kind === 'person') {
      const name = sub.ele('Name');
      if (line.name.value.title) name.ele('Ttl').txt(line.name.value.title);
      for (const fore of line.name.value.forenames) name.ele('Fore').txt(fore);
      name.ele('Sur').txt(line.name.value.surname);
    } else {
      sub.ele('TradingName').txt(line.name.value);
    }
    if (line.worksRef) sub.ele('WorksRef').txt(line.worksRef);
    if (line.unmatched) sub.ele('UnmatchedRate').txt('yes');
    if (line.utr) sub.ele('UTR').txt(line.utr);
    if (line.crn) sub.ele('CRN').txt(line.crn);
    if (line.nino) sub.ele('NINO').txt(line.nino);
    if (line.verificationNumber) sub.ele('VerificationNumber').txt(line.verificationNumber);
    sub.ele('TotalPayments').txt(line.amounts.totalPayments);
    sub.ele('CostOfMaterials').txt(line.amounts.costOfMaterials);
    sub.ele('TotalDeducted').txt(line.amounts.totalDeducted);
  }

  const declarations = body.ele('Declarations');
  if (!input.nil) {
    declarations.ele('EmploymentStatus').txt(yesNo(input.declarations.employmentStatus));
    declarations.ele('Verification').txt(yesNo(input.declarations.verification));
  }
  declarations.ele('InformationCorrect').txt('yes');
  if (input.inactivity) declarations.ele('Inactivity').txt('yes');
  return irMark;
}

/**
 * The CIS300 return as an IRenvelope document (XML declaration, UTF-8, indented), valid against
 * CISreturn-v1-2.xsd. Throws Cis300ValidationError with every issue found.
 */
export function buildCis300Return(input: Cis300ReturnInput): string {
  const prepared = prepare(input, undefined);
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  writeIrEnvelope(doc, input, prepared, false);
  return doc.end({ prettyPrint: true });
}

/**
 * The full GovTalk message for HMRC's Transaction Engine: GovTalkMessage (EnvelopeVersion 2.0, class
 * IR-CIS-CIS300MR, qualifier request, function submit), GovTalkDetails Keys TaxOfficeNumber and
 * TaxOfficeReference, and the IRenvelope in the Body with HMRC's IRmark (Type generic) computed over the
 * canonicalised Body. SenderDetails is left empty: credentials are added by whatever transmits it.
 */
export function buildCis300Envelope(input: Cis300EnvelopeInput): string {
  const keys =
    input.taxOfficeNumber && input.taxOfficeReference
      ? { taxOfficeNumber: input.taxOfficeNumber, taxOfficeReference: input.taxOfficeReference }
      : undefined;
  const issues: string[] = [];
  if (keys && !/^\d{3}$/.test(keys.taxOfficeNumber)) issues.push('Tax office number must be 3 digits');
  if (keys && !/^[A-Za-z0-9]{1,10}$/.test(keys.taxOfficeReference)) {
    issues.push('Tax office reference must be 1 to 10 letters or digits');
  }
  if (!keys && blank(input.contractor.employerRef)) {
    issues.push('The envelope needs the tax office number and reference (or the employer reference)');
  }
  if (issues.length > 0) throw new Cis300ValidationError(issues);
  const prepared = prepare(input, keys);
  const officeKeys = prepared.keys;
  if (!officeKeys) throw new Cis300ValidationError(['Missing tax office keys']);

  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const message = doc.ele(GOVTALK_ENVELOPE_NS, 'GovTalkMessage');
  message.ele('EnvelopeVersion').txt('2.0');
  const header = message.ele('Header');
  const details = header.ele('MessageDetails');
  details.ele('Class').txt(CIS300_MESSAGE_CLASS);
  details.ele('Qualifier').txt('request');
  details.ele('Function').txt('submit');
  details.ele('CorrelationID').txt(input.correlationId ?? '');
  details.ele('Transformation').txt('XML');
  if (input.gatewayTest) details.ele('GatewayTest').txt('1');
  if (input.gatewayTimestamp) details.ele('GatewayTimestamp').txt(input.gatewayTimestamp);
  header.ele('SenderDetails');

  const govTalkDetails = message.ele('GovTalkDetails');
  const keysNode = govTalkDetails.ele('Keys');
  keysNode.ele('Key', { Type: 'TaxOfficeNumber' }).txt(officeKeys.taxOfficeNumber);
  keysNode.ele('Key', { Type: 'TaxOfficeReference' }).txt(officeKeys.taxOfficeReference);
  govTalkDetails.ele('TargetDetails').ele('Organisation').txt('IR');
  if (input.channel) {
    const channel = govTalkDetails.ele('ChannelRouting').ele('Channel');
    channel.ele('URI').txt(input.channel.uri);
    channel.ele('Product').txt(input.channel.product);
    channel.ele('Version').txt(input.channel.version);
  }

  const irMark = writeIrEnvelope(message.ele('Body'), input, prepared, input.irMark !== false);
  if (irMark) {
    // The IRmark element is left out of its own digest, so the digest of the message without its value
    // is the digest of the final message.
    irMark.txt(computeIrMark(doc.end({ prettyPrint: true }), CIS_RETURN_NS));
  }
  return doc.end({ prettyPrint: true });
}
