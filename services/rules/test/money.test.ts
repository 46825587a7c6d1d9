import { formatPounds, isPence, penceOfInput, penceToPounds, poundsToPence } from '../src/index.js';

describe('formatPounds and penceToPounds (en-GB, exact)', () => {
  test.each([
    [0, '£0.00', '0.00'],
    [1, '£0.01', '0.01'],
    [10, '£0.10', '0.10'],
    [123456, '£1,234.56', '1234.56'],
    [100000000, '£1,000,000.00', '1000000.00'],
    [-123456, '-£1,234.56', '-1234.56'],
    [-5, '-£0.05', '-0.05'],
    [Number.MAX_SAFE_INTEGER, '£90,071,992,547,409.91', '90071992547409.91'],
  ])('%i → %s / %s', (pence, formatted, plain) => {
    expect(formatPounds(pence)).toBe(formatted);
    expect(penceToPounds(pence)).toBe(plain);
  });

  test.each([[1.5], [Number.NaN], [Number.POSITIVE_INFINITY]])('%p is not pence: RangeError', (value) => {
    expect(() => formatPounds(value)).toThrow(RangeError);
    expect(() => penceToPounds(value)).toThrow(RangeError);
  });
});

describe('poundsToPence parses exactly, never through float multiplication', () => {
  test.each<[string | number, number]>([
    ['0.1', 10],
    ['.1', 10],
    ['0.29', 29], // 0.29 * 100 is 28.999999999999996 in floating point
    ['1.15', 115], // 1.15 * 100 is 114.99999999999999
    ['1,234.56', 123456],
    ['£1,234.56', 123456],
    ['1,000,000', 100000000],
    [' 12.30 ', 1230],
    ['-12.34', -1234],
    ['-£0.01', -1],
    ['-0', 0],
    ['0', 0],
    [0.1, 10],
    [1.15, 115],
    [-2.5, -250],
  ])('%p → %i', (input, pence) => {
    expect(poundsToPence(input)).toBe(pence);
  });

  test.each<[string | number, RegExp]>([
    ['1.005', /more than 2 decimal places/], // refused, not rounded
    ['0.999', /more than 2 decimal places/],
    [0.1 + 0.2, /more than 2 decimal places/],
    ['', /Invalid amount/],
    ['£', /Invalid amount/],
    ['1e3', /Invalid amount/],
    ['1,23.00', /Invalid amount/],
    ['1 234', /Invalid amount/],
    ['12.', /Invalid amount/],
    ['--1', /Invalid amount/],
    [Number.NaN, /Invalid amount/],
    ['999999999999999999', /too large/],
  ])('%p throws %p', (input, error) => {
    expect(() => poundsToPence(input)).toThrow(error);
  });

  test('round trip: every pence amount formats and parses back to itself', () => {
    for (const pence of [0, 1, 9, 10, 99, 100, 101, 12345, -12345, 999999999]) {
      expect(poundsToPence(formatPounds(pence))).toBe(pence);
      expect(poundsToPence(penceToPounds(pence))).toBe(pence);
    }
  });
});

describe('penceOfInput (a form field)', () => {
  test.each<[string | undefined, number | null]>([
    ['12.50', 1250],
    ['1,234.56', 123456],
    ['0.1', 10],
    ['-3', -300],
    ['', null],
    ['   ', null],
    [undefined, null],
    ['abc', null],
    ['1.005', null],
  ])('%p → %p', (text, pence) => {
    expect(penceOfInput(text)).toBe(pence);
  });
});

test.each([
  [0, true],
  [5, true],
  [-1, false],
  [1.5, false],
  ['5', false],
])('isPence(%p) = %p', (value, expected) => {
  expect(isPence(value)).toBe(expected);
});
