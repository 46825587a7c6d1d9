// A return line stands for at least one invoice (cis.md section 3 'Return line': invoiceCount at least 1).
import {
  compileReturnLines,
  RETURN_LINE_NO_INVOICES,
  validateReturn,
  type MonthlyReturnInput,
} from '../../src/domain/index.js';

const line = (invoiceCount: number | null | undefined, name = 'Acme Builders') => ({
  name,
  grossP: 10000,
  materialsP: 2000,
  cisDeductedP: 1600,
  statementsIssued: true,
  ...(invoiceCount === undefined ? {} : { invoiceCount }),
});

const returnOf = (lines: NonNullable<MonthlyReturnInput['lines']>): MonthlyReturnInput => ({
  taxMonth: '2025-05',
  status: 'draft',
  totals: {
    grossP: lines.reduce((n, l) => n + l.grossP, 0),
    materialsP: lines.reduce((n, l) => n + l.materialsP, 0),
    cisDeductedP: lines.reduce((n, l) => n + l.cisDeductedP, 0),
  },
  lines,
});

describe('validateReturn: a line needs at least one invoice (CIS-200)', () => {
  test('the message names the line', () => {
    expect(RETURN_LINE_NO_INVOICES).toBe('A line must include at least one invoice');
  });

  test.each<[string, number | null, boolean]>([
    ['invoiceCount 1 is valid', 1, true],
    ['invoiceCount 3 is valid', 3, true],
    ['invoiceCount 0 is refused', 0, false],
    ['a negative invoiceCount is refused', -1, false],
    ['a fractional invoiceCount is refused', 1.5, false],
    ['a null invoiceCount is refused', null, false],
  ])('%s', (_name, invoiceCount, valid) => {
    const result = validateReturn(returnOf([line(2, 'First Line Ltd'), line(invoiceCount)]));
    expect(result.valid).toBe(valid);
    expect(result.issues).toEqual(valid ? [] : ['Line 2: A line must include at least one invoice']);
  });

  test('a line given without invoiceCount is not checked for it', () => {
    expect(validateReturn(returnOf([line(undefined)]))).toEqual({ valid: true, issues: [] });
  });

  test('every compiled line counts its invoices, so a compiled return passes', () => {
    const compiled = compileReturnLines({
      taxMonth: '2025-05',
      invoices: [
        { subcontractorId: 'a', grossP: 10000, materialsP: 0, cisDeductionP: 2000, cisRate: 20 },
        { subcontractorId: 'a', grossP: 5000, materialsP: 0, cisDeductionP: 1000, cisRate: 20 },
      ],
      subcontractors: { a: { name: 'Acme Builders' } },
      statements: { a: '2025-06-10T09:00:00.000Z' },
    });
    expect(compiled.lines.map((l) => l.invoiceCount)).toEqual([2]);
    expect(validateReturn(compiled)).toEqual({ valid: true, issues: [] });
  });
});
