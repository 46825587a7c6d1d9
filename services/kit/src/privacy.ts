// The workspace spec's data rules (§5): plain text must not contain a 10-digit number (a tax reference, UTR) or a
// national-insurance pattern (NINO); for display a tax reference shows its last 4 digits, a NINO its first 2 and
// last character, email and phone are partly masked. The policy (where each rule applies) is in docs/privacy.md.

import { maskNino, maskTaxReference, NINO_IN_TEXT, TAX_REFERENCE_IN_TEXT } from '@workspace/rules';
import { HttpProblem } from './http/problem.js';

export type SensitiveIdentifierKind = 'tax-reference' | 'national-insurance-number';

/** Where a sensitive identifier sits in a text; the value itself is not repeated (it is what must not spread). */
export interface SensitiveIdentifierMatch {
  kind: SensitiveIdentifierKind;
  index: number;
  length: number;
}

const TEN_DIGITS = TAX_REFERENCE_IN_TEXT;
const NINO = NINO_IN_TEXT;
/**
 * Machine identifiers that are not tax references even when ten of their characters happen to be digits: UUIDs
 * (event, user and invoice ids) and hex strings of 16 characters or more (trace and span ids, digests).
 */
const MACHINE_IDS =
  /(?<![0-9A-Za-z-])(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})(?![0-9A-Za-z-])/gi;

/** The text with machine identifiers blanked (same length, so indices still point into the original). */
const withoutMachineIds = (text: string): string =>
  text.replace(MACHINE_IDS, (id) => (/[a-f]/i.test(id) ? '_'.repeat(id.length) : id));

/** Every 10-digit number and NINO-shaped text in `text`, in order of position. */
export function findSensitiveIdentifiers(text: string): SensitiveIdentifierMatch[] {
  if (typeof text !== 'string' || text.length < 9) return [];
  const scanned = withoutMachineIds(text);
  const matches: SensitiveIdentifierMatch[] = [];
  for (const match of scanned.matchAll(TEN_DIGITS))
    matches.push({ kind: 'tax-reference', index: match.index, length: match[0].length });
  for (const match of scanned.matchAll(NINO))
    matches.push({ kind: 'national-insurance-number', index: match.index, length: match[0].length });
  return matches.sort((a, b) => a.index - b.index);
}

export function containsSensitiveIdentifier(text: string): boolean {
  return findSensitiveIdentifiers(text).length > 0;
}

/** The message a refused text gets; the same words as the CIS forms use. */
export const SENSITIVE_TEXT_MESSAGE =
  'Must not contain a tax reference (10-digit number) or a National Insurance number';

/**
 * Refused plain text: a validation problem (400, like any invalid field) naming the fields, never echoing the
 * values, so a handler's transaction rolls back and the caller learns which field to change.
 */
export class SensitiveTextError extends HttpProblem {
  constructor(readonly fields: string[]) {
    super(
      400,
      'validation_failed',
      'Text must not contain a tax reference (10-digit number) or a National Insurance number.',
      fields.map((field) => ({ field, message: SENSITIVE_TEXT_MESSAGE })),
    );
    this.name = 'SensitiveTextError';
  }
}

/** Throws SensitiveTextError when `text` (the field `field`) holds a 10-digit number or a NINO pattern. */
export function assertPlainText(text: string, field = 'text'): void {
  if (containsSensitiveIdentifier(text)) throw new SensitiveTextError([field]);
}

/**
 * The paths (`a.b[2].c`) of every string in `value` that holds a sensitive identifier: objects and arrays are
 * walked (maps as objects); numbers, bigints and booleans are not text and are not checked.
 */
export function findSensitiveFields(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return containsSensitiveIdentifier(value) ? [path || '(value)'] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => findSensitiveFields(item, `${path}[${i}]`));
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    return Object.entries(value).flatMap(([key, item]) =>
      key === '$typeName' ? [] : findSensitiveFields(item, path ? `${path}.${key}` : key),
    );
  }
  return [];
}

/** `text` with each 10-digit number and NINO replaced by its display mask (what logs show instead). */
export function maskSensitiveIdentifiers(text: string): string {
  const matches = findSensitiveIdentifiers(text);
  if (matches.length === 0) return text;
  let result = '';
  let at = 0;
  for (const match of matches) {
    if (match.index < at) continue;
    const found = text.slice(match.index, match.index + match.length);
    result +=
      text.slice(at, match.index) +
      (match.kind === 'tax-reference' ? maskTaxReference(found) : maskNino(found));
    at = match.index + match.length;
  }
  return result + text.slice(at);
}

// ---- Masking for display -----------------------------------------------------------------------------------
// One copy for every service and the browser (@workspace/rules), re-exported for the kit's users.
export { maskEmail, maskNino, maskPhone, maskTaxReference } from '@workspace/rules';
