import { maskEmail, maskNino, maskPhone, maskTaxReference } from '../src/index.js';

describe('masks for display (workspace spec §5)', () => {
  test.each<[string | null | undefined, string]>([
    ['1234567890', '******7890'],
    [' 12345 67890 ', '******7890'],
    ['12345', '*2345'],
    ['1234', '****'],
    ['123', '***'],
    ['', ''],
    [null, ''],
    [undefined, ''],
  ])('maskTaxReference(%p) = %p', (input, masked) => {
    expect(maskTaxReference(input)).toBe(masked);
  });

  test.each<[string | null | undefined, string]>([
    ['AB123456C', 'AB******C'],
    ['ab 12 34 56 c', 'AB******C'],
    ['AB12', 'AB*2'],
    ['AB1', '***'],
    ['', ''],
    [null, ''],
    [undefined, ''],
  ])('maskNino(%p) = %p', (input, masked) => {
    expect(maskNino(input)).toBe(masked);
  });

  test.each<[string | null | undefined, string]>([
    ['john.smith@example.com', 'j***@example.com'],
    ['  j@x.io ', 'j***@x.io'],
    ['a@b@example.com', 'a***@example.com'],
    ['@example.com', '***'],
    ['no-at-sign', '***'],
    ['', ''],
    [null, ''],
  ])('maskEmail(%p) = %p', (input, masked) => {
    expect(maskEmail(input)).toBe(masked);
  });

  test.each<[string | null | undefined, string]>([
    ['07700 900123', '********123'],
    ['+44 (0)7700-900123', '+**********123'],
    ['(020) 7946.0018', '********018'],
    ['+12', '+**'],
    ['12', '**'],
    ['', ''],
    [undefined, ''],
  ])('maskPhone(%p) = %p', (input, masked) => {
    expect(maskPhone(input)).toBe(masked);
  });
});
