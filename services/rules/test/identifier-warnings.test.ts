import {
  IDENTIFIER_WARNINGS,
  accountsOfficeRefWarning,
  normalisePostcode,
  plural,
  utrWarning,
  validatePostcode,
  vatNumberWarning,
} from '../src/index.js';

describe('warnings beside identifier fields (HMRC notes §1.9): check digits warn, never refuse', () => {
  test.each([['5860920998'], ['2234567890K'], [' 1097 172 564 ']])(
    'UTR %p passes the check digit: no warning',
    (utr) => {
      expect(utrWarning(utr)).toBeNull();
    },
  );

  test.each([['1234567890'], ['5550000621'], ['K1234567890']])(
    'UTR %p fails the check digit: warned',
    (utr) => {
      expect(utrWarning(utr)).toBe(IDENTIFIER_WARNINGS.utr);
    },
  );

  test('a malformed or blank UTR is an error elsewhere, not a warning', () => {
    expect(utrWarning('12345')).toBeNull();
    expect(utrWarning('')).toBeNull();
  });

  test.each([['930000297'], ['GB 930 0002 97'], ['100000132']])(
    'VAT number %p passes mod-97 or mod-9755',
    (vat) => {
      expect(vatNumberWarning(vat)).toBeNull();
    },
  );

  test.each([['930000200'], ['GB123456789']])('VAT number %p fails both checks: warned', (vat) => {
    expect(vatNumberWarning(vat)).toBe(IDENTIFIER_WARNINGS.vatNumber);
  });

  test('a malformed VAT number is an error elsewhere, not a warning', () => {
    expect(vatNumberWarning('GB12')).toBeNull();
  });

  test('Accounts Office reference: a bad check letter warns, a good one does not', () => {
    expect(accountsOfficeRefWarning('123PA00012345')).toBe(IDENTIFIER_WARNINGS.accountsOfficeRef);
    expect(accountsOfficeRefWarning('961PF10305739')).toBeNull();
    expect(accountsOfficeRefWarning('nonsense')).toBeNull();
  });
});

describe('UK postcodes checked and normalised', () => {
  test.each([
    ['sw1a1aa', 'SW1A 1AA'],
    ['SW1A 1AA', 'SW1A 1AA'],
    ['  ec1a  1bb ', 'EC1A 1BB'],
    ['m11ae', 'M1 1AE'],
    ['b338th', 'B33 8TH'],
    ['cr2 6xh', 'CR2 6XH'],
    ['dn551pt', 'DN55 1PT'],
    ['bt7 1nn', 'BT7 1NN'],
    ['gir0aa', 'GIR 0AA'],
  ])('%p → %p', (input, normalised) => {
    expect(validatePostcode(input)).toEqual({ valid: true, normalised, error: null });
    expect(normalisePostcode(input)).toBe(normalised);
  });

  test.each([['12345'], ['SW1A'], ['SW1A 1A'], ['1AA SW1'], ['SW1A 1AAA'], ['not a postcode'], ['']])(
    '%p is refused with a clear message',
    (input) => {
      expect(validatePostcode(input)).toMatchObject({
        valid: false,
        error: 'Invalid UK postcode (e.g., SW1A 1AA)',
      });
    },
  );
});

describe('plural', () => {
  test.each([
    [0, 'subcontractor', undefined, '0 subcontractors'],
    [1, 'subcontractor', undefined, '1 subcontractor'],
    [2, 'invoice', undefined, '2 invoices'],
    [1, 'entry', 'entries', '1 entry'],
    [1234, 'entry', 'entries', '1,234 entries'],
  ])('%i %s', (count, singular, pluralForm, expected) => {
    expect(plural(count, singular, pluralForm)).toBe(expected);
  });
});
