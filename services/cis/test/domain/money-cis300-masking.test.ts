import {
  formatPounds,
  isPence,
  maskEmail,
  maskNino,
  maskPhone,
  maskUtr,
  penceToPounds,
  poundsToPence,
  toCis300Amounts,
  wholePoundsDown,
} from '../../src/domain/index.js';

describe('formatPounds and penceToPounds', () => {
  test.each([
    [0, '£0.00', '0.00'],
    [1, '£0.01', '0.01'],
    [29, '£0.29', '0.29'],
    [100, '£1.00', '1.00'],
    [123456, '£1,234.56', '1234.56'],
    [100000000, '£1,000,000.00', '1000000.00'],
    [-123456, '-£1,234.56', '-1234.56'],
    [-5, '-£0.05', '-0.05'],
  ])('%i → %s / %s', (pence, formatted, plain) => {
    expect(formatPounds(pence)).toBe(formatted);
    expect(penceToPounds(pence)).toBe(plain);
  });

  test.each([[1.5], [Number.NaN], [Number.POSITIVE_INFINITY]])('%p throws', (value) => {
    expect(() => formatPounds(value)).toThrow(RangeError);
    expect(() => penceToPounds(value)).toThrow(RangeError);
  });
});

describe('poundsToPence parses exactly (no float multiplication)', () => {
  test.each<[string | number, number]>([
    ['0.29', 29], // 0.29 * 100 = 28.999999999999996 in floating point
    ['0.57', 57],
    ['1234.5', 123450],
    ['1234.56', 123456],
    ['1234', 123400],
    ['£1,234.56', 123456],
    ['1,000,000', 100000000],
    ['  12.30 ', 1230],
    ['.5', 50],
    ['-12.34', -1234],
    ['-£0.01', -1],
    ['0', 0],
    ['-0', 0],
    [0.29, 29],
    [12.3, 1230],
    [1234, 123400],
  ])('%p → %i', (input, pence) => {
    expect(poundsToPence(input)).toBe(pence);
  });

  test.each<[string | number, RegExp]>([
    ['1.005', /more than 2 decimal places/],
    ['0.001', /more than 2 decimal places/],
    [1.005, /more than 2 decimal places/],
    ['', /Invalid amount/],
    ['abc', /Invalid amount/],
    ['1e3', /Invalid amount/],
    ['1,23.00', /Invalid amount/],
    ['12.', /Invalid amount/],
    [Number.NaN, /Invalid amount/],
    [Number.POSITIVE_INFINITY, /Invalid amount/],
    ['999999999999999999', /too large/],
  ])('%p throws %p', (input, error) => {
    expect(() => poundsToPence(input)).toThrow(error);
  });

  test.each([
    [0, true],
    [5, true],
    [-1, false],
    [1.5, false],
    [Number.NaN, false],
    ['5', false],
  ])('isPence(%p) = %p', (value, expected) => {
    expect(isPence(value)).toBe(expected);
  });
});

describe('toCis300Amounts (CISreturn-v1-2.xsd; hmrc/cis-frontend "Round down to the nearest pound")', () => {
  test.each([
    [256700, 36700, 44000, '2567.00', '367.00', '440.00'],
    [256799, 36799, 44010, '2567.00', '367.00', '440.10'],
    [0, 0, 0, '0.00', '0.00', '0.00'],
    [99, 1, 1, '0.00', '0.00', '0.01'],
    [9_999_999_999, 9_999_999_999, 9_999_999_999, '99999999.00', '99999999.00', '99999999.99'],
  ])('%i / %i / %i', (totalPaymentsP, costOfMaterialsP, totalDeductedP, payments, materials, deducted) => {
    const r = toCis300Amounts({ totalPaymentsP, costOfMaterialsP, totalDeductedP });
    expect(r).toEqual({ totalPayments: payments, costOfMaterials: materials, totalDeducted: deducted });
    expect(r.totalPayments).toMatch(/\.00$/);
    expect(r.costOfMaterials).toMatch(/\.00$/);
  });

  test.each([
    [{ totalPaymentsP: -1, costOfMaterialsP: 0, totalDeductedP: 0 }, /totalPaymentsP/],
    [{ totalPaymentsP: 0, costOfMaterialsP: -1, totalDeductedP: 0 }, /costOfMaterialsP/],
    [{ totalPaymentsP: 0, costOfMaterialsP: 0, totalDeductedP: -1 }, /totalDeductedP/],
    [{ totalPaymentsP: 0.5, costOfMaterialsP: 0, totalDeductedP: 0 }, /totalPaymentsP/],
    [{ totalPaymentsP: 10_000_000_000, costOfMaterialsP: 0, totalDeductedP: 0 }, /maximum/],
  ])('refuses %p', (input, error) => {
    expect(() => toCis300Amounts(input)).toThrow(error);
  });

  test('wholePoundsDown', () => {
    expect(wholePoundsDown(199)).toBe('1.00');
    expect(() => wholePoundsDown(-100)).toThrow(RangeError);
  });
});

describe('masking (workspace spec §5)', () => {
  test.each([
    ['1234567890', '******7890'],
    ['12345 67890', '******7890'],
    ['7890', '****'],
    ['12', '**'],
    ['', ''],
    [undefined, ''],
    [null, ''],
  ])('maskUtr(%p) = %p', (input, masked) => {
    expect(maskUtr(input)).toBe(masked);
  });

  test.each([
    ['AB123456C', 'AB******C'],
    ['AB 12 34 56 C', 'AB******C'],
    ['ab123456c', 'AB******C'],
    ['ABC', '***'],
    ['', ''],
    [undefined, ''],
  ])('maskNino(%p) = %p', (input, masked) => {
    expect(maskNino(input)).toBe(masked);
  });

  test.each([
    ['john.smith@example.com', 'j***@example.com'],
    ['a@b.co', 'a***@b.co'],
    ['not-an-email', '***'],
    ['', ''],
    [undefined, ''],
  ])('maskEmail(%p) = %p', (input, masked) => {
    expect(maskEmail(input)).toBe(masked);
  });

  test.each([
    ['07700 900123', '********123'],
    ['+44 7700 900123', '+*********123'],
    ['(020) 7946-0958', '********958'],
    ['12', '**'],
    ['', ''],
    [null, ''],
  ])('maskPhone(%p) = %p', (input, masked) => {
    expect(maskPhone(input)).toBe(masked);
  });
});
