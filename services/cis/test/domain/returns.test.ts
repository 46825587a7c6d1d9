import {
  compileReturnLines,
  validateReturn,
  type MonthlyReturnInput,
  type ReturnInvoice,
  type ReturnSubcontractor,
} from '../../src/domain/index.js';

const subs: Record<string, ReturnSubcontractor> = {
  s1: {
    name: 'Zed Roofing',
    utrMasked: '******7890',
    ninoMasked: '',
    verificationReference: 'V1234567890',
    rate: 20,
  },
  s2: {
    name: 'Acme Builders',
    utrMasked: '******1111',
    ninoMasked: 'AB******C',
    verificationReference: '',
    rate: 0,
  },
  s3: {
    name: 'Mid Plastering',
    utrMasked: '******2222',
    ninoMasked: '',
    verificationReference: 'V0000000001',
    rate: 30,
  },
};

const inv = (subcontractorId: string, grossP: number, materialsP: number, cisDeductionP: number, rate?: number, reference?: string): ReturnInvoice => ({
  subcontractorId,
  grossP,
  materialsP,
  cisDeductionP,
  ...(rate === undefined ? {} : { verificationSnapshot: { rate, reference: reference ?? null } }),
}); // prettier-ignore

describe('compileReturnLines', () => {
  test('one line per subcontractor, sorted by name, with totals', () => {
    const result = compileReturnLines({
      taxMonth: '2025-05',
      invoices: [
        inv('s1', 256700, 36700, 44000, 20),
        inv('s2', 100000, 0, 0, 0),
        inv('s1', 10000, 0, 2000, 20),
      ],
      subcontractors: subs,
      statements: { s1: '2025-06-10T09:00:00Z', s2: null },
    });
    expect(result.status).toBe('draft');
    expect(result.taxMonth).toBe('2025-05');
    expect(result.lines).toEqual([
      {
        subcontractorId: 's2',
        name: 'Acme Builders',
        utrMasked: '******1111',
        ninoMasked: 'AB******C',
        verificationRef: '',
        grossP: 100000,
        materialsP: 0,
        cisDeductedP: 0,
        cisRate: 0,
        invoiceCount: 1,
        statementsIssued: false,
        lastStatementDate: null,
      },
      {
        subcontractorId: 's1',
        name: 'Zed Roofing',
        utrMasked: '******7890',
        ninoMasked: '',
        verificationRef: 'V1234567890',
        grossP: 266700,
        materialsP: 36700,
        cisDeductedP: 46000,
        cisRate: 20,
        invoiceCount: 2,
        statementsIssued: true,
        lastStatementDate: '2025-06-10T09:00:00Z',
      },
    ]);
    expect(result.totals).toEqual({
      subcontractors: 2,
      invoices: 3,
      grossP: 366700,
      materialsP: 36700,
      cisDeductedP: 46000,
    });
    expect(validateReturn(result).issues).toEqual([
      // s1 has its statement, s2 had no deduction: nothing to report
    ]);
  });

  test('no invoices gives a nil return', () => {
    const result = compileReturnLines({ taxMonth: '2025-05', invoices: [], subcontractors: subs });
    expect(result).toEqual({
      taxMonth: '2025-05',
      status: 'nil',
      lines: [],
      totals: { subcontractors: 0, invoices: 0, grossP: 0, materialsP: 0, cisDeductedP: 0 },
    });
    expect(validateReturn(result).valid).toBe(true);
  });

  test('mixed rates in a month: the highest rate and its verification number', () => {
    const result = compileReturnLines({
      taxMonth: '2025-05',
      invoices: [inv('s3', 1000, 0, 200, 20, 'V0000000001'), inv('s3', 1000, 0, 300, 30, 'V0000000001AB')],
      subcontractors: new Map(Object.entries(subs)),
      statements: new Map([['s3', '2025-06-01']]),
    });
    expect(result.lines[0]).toMatchObject({ cisRate: 30, verificationRef: 'V0000000001AB', invoiceCount: 2 });
    expect(result.lines[0]?.statementsIssued).toBe(true);
  });

  test('rate falls back from the snapshot to the invoice rate, then the subcontractor, then 20', () => {
    const result = compileReturnLines({
      taxMonth: '2025-05',
      invoices: [
        { subcontractorId: 's1', grossP: 1, materialsP: 0, cisDeductionP: 0, cisRate: 30 },
        { subcontractorId: 's3', grossP: 1, materialsP: 0, cisDeductionP: 0 },
        {
          subcontractorId: 'gone',
          subcontractorName: 'Old Name Ltd',
          grossP: 1,
          materialsP: 0,
          cisDeductionP: 0,
        },
        { subcontractorId: 'lost', grossP: 1, materialsP: 0, cisDeductionP: 0 },
      ],
      subcontractors: subs,
    });
    expect(result.lines.map((l) => [l.name, l.cisRate])).toEqual([
      ['lost', 20],
      ['Mid Plastering', 30],
      ['Old Name Ltd', 20],
      ['Zed Roofing', 30],
    ]);
  });

  test('equal names sort by id', () => {
    const result = compileReturnLines({
      taxMonth: '2025-05',
      invoices: [inv('b', 1, 0, 0), inv('a', 1, 0, 0)],
      subcontractors: { a: { name: 'Same' }, b: { name: 'Same' } },
    });
    expect(result.lines.map((l) => l.subcontractorId)).toEqual(['a', 'b']);
  });

  test.each([[''], ['2025-13'], ['June']])('tax month %p is required', (taxMonth) => {
    expect(() => compileReturnLines({ taxMonth, invoices: [], subcontractors: {} })).toThrow(
      'Tax month is required',
    );
  });
});

const line = (over: Partial<NonNullable<MonthlyReturnInput['lines']>[number]> = {}) => ({
  name: 'Acme',
  grossP: 10000,
  materialsP: 2000,
  cisDeductedP: 1600,
  statementsIssued: true,
  ...over,
});

function ret(over: Partial<MonthlyReturnInput> = {}): MonthlyReturnInput {
  const lines = over.lines ?? [line()];
  const sum = (k: 'grossP' | 'materialsP' | 'cisDeductedP') => lines.reduce((n, l) => n + l[k], 0);
  return {
    taxMonth: '2025-05',
    status: 'draft',
    totals: { grossP: sum('grossP'), materialsP: sum('materialsP'), cisDeductedP: sum('cisDeductedP') },
    lines,
    ...over,
  };
}

describe('validateReturn (spec §5 Return, verbatim messages)', () => {
  test('a consistent return is valid', () => {
    expect(validateReturn(ret())).toEqual({ valid: true, issues: [] });
  });

  test.each<[string, MonthlyReturnInput, string[]]>([
    ['no tax month', ret({ taxMonth: '' }), ['Tax month is required']],
    ['tax month from period.label', ret({ taxMonth: undefined, period: { label: '2025-05' } }), []],
    ['no tax month at all', ret({ taxMonth: undefined }), ['Tax month is required']],
    [
      'negative totals',
      ret({ lines: [], status: 'nil', totals: { grossP: -1, materialsP: -1, cisDeductedP: -1 } }),
      [
        'Total gross amount cannot be negative',
        'Total materials amount cannot be negative',
        'Total CIS deducted cannot be negative',
        // -1 against an empty sum is within the 1 p tolerance
      ],
    ],
    [
      'negative line amounts',
      ret({ lines: [line({ grossP: -100, materialsP: -200, cisDeductedP: -5 })] }),
      [
        // the totals are the lines' sums, so they are negative too
        'Total gross amount cannot be negative',
        'Total materials amount cannot be negative',
        'Total CIS deducted cannot be negative',
        'Line 1: Gross amount cannot be negative',
        'Line 1: Materials amount cannot be negative',
        'Line 1: CIS deducted cannot be negative',
      ],
    ],
    [
      'materials above gross on line 2',
      ret({ lines: [line(), line({ name: 'Bravo', materialsP: 10001 })] }),
      ['Line 2: Materials exceed gross amount'],
    ],
    [
      'statement not issued',
      ret({ lines: [line(), line({ name: 'Bravo Ltd', statementsIssued: false })] }),
      ['Line 2: Statement not issued for Bravo Ltd'],
    ],
    [
      'statement count 0 counts as not issued',
      ret({ lines: [line({ statementsIssued: 0 })] }),
      ['Line 1: Statement not issued for Acme'],
    ],
    ['statement count 2 counts as issued', ret({ lines: [line({ statementsIssued: 2 })] }), []],
    [
      'no deduction needs no statement',
      ret({ lines: [line({ cisDeductedP: 0, statementsIssued: false })] }),
      [],
    ],
    [
      'empty non-nil return',
      ret({ lines: [], totals: { grossP: 0, materialsP: 0, cisDeductedP: 0 } }),
      ['Return must have at least one line or be marked as nil'],
    ],
    [
      'empty nil return',
      ret({ lines: [], status: 'nil', totals: { grossP: 0, materialsP: 0, cisDeductedP: 0 } }),
      [],
    ],
    ['nil return with lines', ret({ status: 'nil' }), ['A nil return cannot have subcontractor lines']],
    ['missing totals and lines', { taxMonth: '2025-05', status: 'nil' }, []],
  ])('%s', (_name, input, issues) => {
    const result = validateReturn(input);
    expect(result.issues).toEqual(issues);
    expect(result.valid).toBe(issues.length === 0);
  });

  test.each([
    ['gross off by 1 p: within tolerance', { grossP: 10001, materialsP: 2000, cisDeductedP: 1600 }, []],
    ['gross off by -1 p: within tolerance', { grossP: 9999, materialsP: 2000, cisDeductedP: 1600 }, []],
    [
      'gross off by 2 p',
      { grossP: 10002, materialsP: 2000, cisDeductedP: 1600 },
      ['Gross total mismatch: Expected £100.00, got £100.02'],
    ],
    [
      'materials off by 2 p',
      { grossP: 10000, materialsP: 1998, cisDeductedP: 1600 },
      ['Materials total mismatch: Expected £20.00, got £19.98'],
    ],
    [
      'CIS off by £1,000',
      { grossP: 10000, materialsP: 2000, cisDeductedP: 101600 },
      ['CIS total mismatch: Expected £16.00, got £1,016.00'],
    ],
    [
      'all three',
      { grossP: 0, materialsP: 0, cisDeductedP: 0 },
      [
        'Gross total mismatch: Expected £100.00, got £0.00',
        'Materials total mismatch: Expected £20.00, got £0.00',
        'CIS total mismatch: Expected £16.00, got £0.00',
      ],
    ],
  ])('%s', (_name, totals, issues) => {
    expect(validateReturn(ret({ totals })).issues).toEqual(issues);
  });
});
