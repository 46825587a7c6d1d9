import {
  calculateInvoice,
  CIS_RATES,
  formatPounds,
  highMaterialsWarning,
  materialsPercentageOf,
  percentOfHalfUp,
  VAT_RATES,
  type InvoiceCalculationInput,
} from '../../src/domain/index.js';

const base: InvoiceCalculationInput = {
  grossP: 0,
  materialsP: 0,
  cisRate: 20,
  vatRate: 0,
  reverseCharge: false,
};

describe('constants (spec §9)', () => {
  test('CIS rates 0, 20, 30 and VAT rates 0, 5, 20', () => {
    expect(CIS_RATES).toEqual([0, 20, 30]);
    expect(VAT_RATES).toEqual([0, 5, 20]);
  });
});

describe('HMRC worked example CISR61230: £2,567.00 less £367.00 materials', () => {
  test.each([
    [20, 44000],
    [30, 66000],
    [0, 0],
  ])('at %i%% the deduction is %i pence', (cisRate, deduction) => {
    const r = calculateInvoice({ ...base, grossP: 256700, materialsP: 36700, cisRate });
    expect(r.labourP).toBe(220000);
    expect(r.cisDeductionP).toBe(deduction);
    expect(r.netPaymentP).toBe(256700 - deduction);
    expect(r.errors).toEqual([]);
  });
});

describe('deduction rounds half-up to the penny with integer arithmetic', () => {
  test.each([
    // labour, rate, deduction
    [1, 20, 0], // 0.2 → 0
    [2, 20, 0], // 0.4 → 0
    [3, 20, 1], // 0.6 → 1
    [5, 20, 1], // 1.0
    [5, 30, 2], // 1.5 → 2 (half-up, not banker's 2 either way)
    [15, 30, 5], // 4.5 → 5 (banker's would give 4)
    [25, 30, 8], // 7.5 → 8 (banker's would give 8)
    [35, 30, 11], // 10.5 → 11 (banker's would give 10)
    [45, 30, 14], // 13.5 → 14
    [1, 30, 0], // 0.3 → 0
    [2, 30, 1], // 0.6 → 1
    [10005, 20, 2001],
    [2, 25, 1], // 0.5 → 1 (the half case directly)
    [9_007_199_254_740, 30, 2_702_159_776_422], // large, exact
  ])('%i p at %i%% → %i p', (labour, rate, expected) => {
    expect(percentOfHalfUp(labour, rate)).toBe(expected);
  });

  test.each([
    [3, 20, 1],
    [5, 30, 2],
    [1, 20, 0],
  ])('through calculateInvoice: labour %i p at %i%% → %i p', (labour, cisRate, expected) => {
    expect(calculateInvoice({ ...base, grossP: labour, cisRate }).cisDeductionP).toBe(expected);
  });

  test('0.29 style values stay exact (no float: 29 × 20 / 100 = 5.8 → 6)', () => {
    expect(calculateInvoice({ ...base, grossP: 29 }).cisDeductionP).toBe(6);
  });

  test.each([
    [-1, 20],
    [1.5, 20],
    [10, -20],
    [10, 2.5],
  ])('percentOfHalfUp refuses %p at %p', (amount, rate) => {
    expect(() => percentOfHalfUp(amount, rate)).toThrow(RangeError);
  });
});

describe('VAT: ordinary and reverse charge (spec §5 Calculation, HMRC notes §1.10)', () => {
  test.each([
    // gross, materials, cis, vat, reverse, vatAmount, reverseChargeVat, grossTotal, net
    [100000, 0, 20, 20, false, 20000, 0, 120000, 100000],
    [100000, 0, 20, 20, true, 0, 20000, 100000, 80000],
    [100000, 40000, 30, 5, false, 5000, 0, 105000, 87000],
    [100000, 40000, 30, 5, true, 0, 5000, 100000, 82000],
    [100000, 0, 0, 0, false, 0, 0, 100000, 100000],
    [333, 0, 20, 20, false, 67, 0, 400, 333], // VAT 66.6 → 67, deduction 66.6 → 67
    [10, 0, 20, 5, false, 1, 0, 11, 9], // VAT 0.5 → 1 (half-up)
  ])(
    'gross %i materials %i CIS %i%% VAT %i%% reverse %p',
    (
      grossP,
      materialsP,
      cisRate,
      vatRate,
      reverseCharge,
      vatAmountP,
      reverseChargeVatP,
      grossTotalP,
      netPaymentP,
    ) => {
      const r = calculateInvoice({ grossP, materialsP, cisRate, vatRate, reverseCharge });
      expect(r.vatBaseP).toBe(grossP);
      expect(r.vatAmountP).toBe(vatAmountP);
      expect(r.reverseChargeVatP).toBe(reverseChargeVatP);
      expect(r.grossTotalP).toBe(grossTotalP);
      expect(r.netPaymentP).toBe(netPaymentP);
    },
  );

  test('the deduction is never taken from the VAT (CISR15100)', () => {
    const r = calculateInvoice({
      grossP: 100000,
      materialsP: 0,
      cisRate: 30,
      vatRate: 20,
      reverseCharge: false,
    });
    expect(r.cisDeductionP).toBe(30000);
    expect(r.netPaymentP).toBe(100000 + 20000 - 30000);
  });

  test('reverse charge at 0% VAT warns that it does not apply', () => {
    const r = calculateInvoice({ grossP: 1000, materialsP: 0, cisRate: 20, vatRate: 0, reverseCharge: true });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual(['Reverse charge does not apply to zero-rated supplies (VAT rate 0%)']);
  });

  test('reverseCharge omitted counts as false', () => {
    expect(calculateInvoice({ grossP: 1000, materialsP: 0, cisRate: 20, vatRate: 20 }).vatAmountP).toBe(200);
  });
});

describe('labour, zero and boundary amounts', () => {
  test.each([
    [0, 0, 0, 0, 0],
    [1000, 1000, 0, 0, 1000], // all materials: labour 0, nothing deducted
    [1000, 999, 1, 0, 1000],
    [1000, 0, 1000, 200, 800],
  ])(
    'gross %i materials %i → labour %i, deduction %i, net %i',
    (grossP, materialsP, labour, deduction, net) => {
      const r = calculateInvoice({ ...base, grossP, materialsP });
      expect(r.labourP).toBe(labour);
      expect(r.cisDeductionP).toBe(deduction);
      expect(r.netPaymentP).toBe(net);
      expect(r.labourP).toBeGreaterThanOrEqual(0);
      expect(r.netPaymentP).toBeGreaterThanOrEqual(0);
    },
  );
});

describe('validation errors (spec §5 Invoice amounts, verbatim)', () => {
  test.each<[string, Partial<InvoiceCalculationInput>, string[]]>([
    ['negative gross', { grossP: -1 }, ['Invalid gross amount']],
    ['fractional gross', { grossP: 10.5 }, ['Invalid gross amount']],
    ['NaN gross', { grossP: Number.NaN }, ['Invalid gross amount']],
    ['infinite gross', { grossP: Number.POSITIVE_INFINITY }, ['Invalid gross amount']],
    ['string gross', { grossP: '100' as unknown as number }, ['Invalid gross amount']],
    ['negative materials', { grossP: 100, materialsP: -1 }, ['Invalid materials amount']],
    ['fractional materials', { grossP: 100, materialsP: 0.5 }, ['Invalid materials amount']],
    ['materials above gross', { grossP: 100, materialsP: 101 }, ['Materials cannot exceed gross amount']],
    ['CIS rate 25', { grossP: 100, cisRate: 25 }, ['Invalid CIS rate. Must be 0, 20, or 30']],
    ['CIS rate 10', { grossP: 100, cisRate: 10 }, ['Invalid CIS rate. Must be 0, 20, or 30']],
    ['VAT rate 17.5', { grossP: 100, vatRate: 17.5 }, ['Invalid VAT rate. Must be 0, 5, or 20']],
    ['VAT rate 15', { grossP: 100, vatRate: 15 }, ['Invalid VAT rate. Must be 0, 5, or 20']],
    [
      'several at once',
      { grossP: -5, materialsP: -1, cisRate: 1, vatRate: 1 },
      [
        'Invalid gross amount',
        'Invalid materials amount',
        'Invalid CIS rate. Must be 0, 20, or 30',
        'Invalid VAT rate. Must be 0, 5, or 20',
      ],
    ],
  ])('%s', (_name, override, errors) => {
    expect(calculateInvoice({ ...base, ...override }).errors).toEqual(errors);
  });

  test.each([
    ['valid gross, bad rate: net equals the gross', { grossP: 5000, cisRate: 25, vatRate: 20 }, 5000],
    ['materials above gross: net equals the gross', { grossP: 5000, materialsP: 6000 }, 5000],
    ['invalid gross: net is 0', { grossP: -5000 }, 0],
  ])('%s; labour, deduction and VAT are 0', (_name, override, net) => {
    const r = calculateInvoice({ ...base, ...override });
    expect(r.labourP).toBe(0);
    expect(r.cisDeductionP).toBe(0);
    expect(r.vatAmountP).toBe(0);
    expect(r.reverseChargeVatP).toBe(0);
    expect(r.vatBaseP).toBe(0);
    expect(r.netPaymentP).toBe(net);
    expect(r.grossTotalP).toBe(net);
    expect(r.materialsPercentage).toBe(0);
  });
});

describe('materials percentage and the 60% warning', () => {
  test.each([
    [0, 0, 0],
    [256700, 36700, 14.3], // 14.2968… → 14.30
    [1000, 655, 65.5],
    [3, 2, 66.67],
    [3, 1, 33.33],
    [200000, 1, 0], // 0.0005 % → 0.00
    [2000, 1, 0.05], // 0.05 exactly
    [40000, 1, 0], // 0.0025 → 0.00
    [8000, 1, 0.01], // 0.0125 → 0.01
    [1000, 1000, 100],
  ])('gross %i materials %i → %d %%', (grossP, materialsP, pct) => {
    expect(materialsPercentageOf(grossP, materialsP)).toBe(pct);
    expect(calculateInvoice({ ...base, grossP, materialsP }).materialsPercentage).toBe(pct);
  });

  test.each([
    [1000, 599, null],
    [1000, 600, 'High materials percentage (60%) - please verify this is correct'],
    [1000, 655, 'High materials percentage (65.5%) - please verify this is correct'],
    [3, 2, 'High materials percentage (66.67%) - please verify this is correct'],
    [1000, 1000, 'High materials percentage (100%) - please verify this is correct'],
    [100000, 59999, null], // 59.999 % is below the threshold (exact comparison)
    [0, 0, null],
  ])('gross %i materials %i warns %p', (grossP, materialsP, warning) => {
    const r = calculateInvoice({ ...base, grossP, materialsP });
    expect(r.warnings).toEqual(warning ? [warning] : []);
  });

  test('highMaterialsWarning formats the number as given', () => {
    expect(highMaterialsWarning(72.25)).toBe(
      'High materials percentage (72.25%) - please verify this is correct',
    );
  });
});

test('formatPounds of the worked example', () => {
  const r = calculateInvoice({ ...base, grossP: 256700, materialsP: 36700 });
  expect(formatPounds(r.cisDeductionP)).toBe('£440.00');
});
