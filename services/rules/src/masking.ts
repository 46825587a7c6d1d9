// Masking for display (workspace spec §5): a tax reference shows its last 4 digits; a national insurance number
// shows the first 2 and last 1 characters; email and phone are partly masked. Masks keep the length of the value
// (except email) so a column lines up; empty or missing input gives ''.

const clean = (value: string | null | undefined): string =>
  typeof value === 'string' ? value.replace(/\s+/g, '') : '';

/** A tax reference (UTR) shows its last 4 digits: '1234567890' → '******7890'. 4 characters or fewer: all masked. */
export function maskTaxReference(reference: string | null | undefined): string {
  const value = clean(reference);
  if (value.length <= 4) return '*'.repeat(value.length);
  return '*'.repeat(value.length - 4) + value.slice(-4);
}

/** A NINO shows its first 2 and last 1 characters: 'AB123456C' → 'AB******C'. 3 characters or fewer: all masked. */
export function maskNino(nino: string | null | undefined): string {
  const value = clean(nino).toUpperCase();
  if (value.length <= 3) return '*'.repeat(value.length);
  return value.slice(0, 2) + '*'.repeat(value.length - 3) + value.slice(-1);
}

/** 'john.smith@example.com' → 'j***@example.com': the local part keeps its first character; no '@' → '***'. */
export function maskEmail(email: string | null | undefined): string {
  const value = typeof email === 'string' ? email.trim() : '';
  if (!value) return '';
  const at = value.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${value.charAt(0)}***${value.slice(at)}`;
}

/** '07700 900123' → '********123': separators dropped, all but the last 3 digits masked, a leading '+' kept. */
export function maskPhone(phone: string | null | undefined): string {
  const value = typeof phone === 'string' ? phone.replace(/[\s\-().]/g, '') : '';
  if (!value) return '';
  const plus = value.startsWith('+') ? '+' : '';
  const digits = plus ? value.slice(1) : value;
  if (digits.length <= 3) return plus + '*'.repeat(digits.length);
  return plus + '*'.repeat(digits.length - 3) + digits.slice(-3);
}

// ---- Identifiers inside free text -------------------------------------------------------------------------
// One pattern for every check: the browser's form rules, the services' plain-text refusal and the log masking.

/**
 * The shape of a UTR in text: a run of exactly 10 digits, or the two groups of 5 HMRC prints ('12345 67890', also
 * with a hyphen), not part of a longer run of digits.
 */
export const TAX_REFERENCE_IN_TEXT = /(?<!\d)(?:\d{10}|\d{5}[ -]\d{5})(?!\d)/g;

/**
 * A NINO in text: two prefix letters (HMRC never uses D, F, I, Q, U, V, nor O second), six digits, a suffix A-D; any
 * case, spaces allowed between the pairs, not glued to other letters or digits.
 */
export const NINO_IN_TEXT =
  /(?<![A-Z0-9])[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Z0-9])/gi;

/** True when text holds a UTR-shaped number or a NINO pattern (the spec's plain-text rule, §5). */
export function containsTaxIdentifier(text: string): boolean {
  return (
    new RegExp(TAX_REFERENCE_IN_TEXT.source).test(text) || new RegExp(NINO_IN_TEXT.source, 'i').test(text)
  );
}
