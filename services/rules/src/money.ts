// Money in pence. Amounts are integer pence everywhere (spec section 1: "All amounts are held in pence"); these
// functions only convert at the edges, with integer arithmetic, never float multiplication.

/** True for a finite, non-negative safe integer (a valid pence amount). */
export function isPence(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function splitPence(pence: number): { sign: string; pounds: string; pennies: string } {
  if (!Number.isSafeInteger(pence)) throw new RangeError(`Pence must be a safe integer: ${pence}`);
  const abs = Math.abs(pence);
  return {
    sign: pence < 0 ? '-' : '',
    pounds: String(Math.floor(abs / 100)),
    pennies: String(abs % 100).padStart(2, '0'),
  };
}

/** 123456 → '£1,234.56' (en-GB); negative → '-£1,234.56'. */
export function formatPounds(pence: number): string {
  const { sign, pounds, pennies } = splitPence(pence);
  return `${sign}£${groupThousands(pounds)}.${pennies}`;
}

/** 123456 → '1234.56' (no symbol, no grouping: CSV and XML); negative → '-1234.56'. */
export function penceToPounds(pence: number): string {
  const { sign, pounds, pennies } = splitPence(pence);
  return `${sign}${pounds}.${pennies}`;
}

/**
 * Parses a pounds amount exactly: '1234.5' → 123450, '0.29' → 29, '£1,234.56' → 123456, 12.3 → 1230.
 * Accepts an optional '£', thousands commas, an optional leading '-', at most 2 decimal places.
 * Throws an Error for anything else (more than 2 dp, exponents, empty, non-finite numbers).
 */
export function poundsToPence(input: string | number): number {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw new Error(`Invalid amount: ${input}`);
    text = String(input);
  } else {
    text = input.trim().replace(/^(-?)£/, '$1');
    if (/^-?\d{1,3}(,\d{3})+(\.\d*)?$/.test(text)) text = text.replace(/,/g, '');
  }
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text) ?? /^(-?)()\.(\d{1,2})$/.exec(text);
  if (!match) {
    if (/^-?\d*\.\d{3,}$/.test(text))
      throw new Error(`Amount has more than 2 decimal places: ${String(input)}`);
    throw new Error(`Invalid amount: ${String(input)}`);
  }
  const [, sign = '', whole = '', fraction = ''] = match;
  const pence = Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(pence)) throw new Error(`Amount too large: ${String(input)}`);
  return sign === '-' && pence !== 0 ? -pence : pence;
}

/** Pounds text typed into a form → pence; null when blank or not an amount (the form shows its own message). */
export function penceOfInput(text: string | undefined): number | null {
  if (text === undefined || text.trim() === '') return null;
  try {
    return poundsToPence(text);
  } catch {
    return null;
  }
}
