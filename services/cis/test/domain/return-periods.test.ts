import {
  dueTaxMonth,
  lateFilingPenalty,
  markRefusal,
  monthsAfter,
  pastDeadlineAlerts,
  periodState,
  submitTooEarly,
  taxMonthsBack,
  type PeriodFacts,
} from '../../src/domain/index.js';

// '2026-10' is 6 October–5 November 2026: filing deadline 19 November 2026.
const facts = (overrides: Partial<PeriodFacts> = {}): PeriodFacts => ({
  label: '2026-10',
  today: '2026-11-25',
  filedOn: null,
  mark: null,
  paidInvoices: 2,
  cisDeductedP: 40_000,
  ...overrides,
});

describe('lateFilingPenalty (HMRC Sched 55 FA 2009, hmrc-cis-notes §1.8)', () => {
  const at = (asOf: string, cisDeductedP = 0) =>
    lateFilingPenalty({ filingDeadline: '2026-11-19', asOf, cisDeductedP }).totalP;

  test('nothing on or before the filing deadline', () => {
    expect(at('2026-11-01')).toBe(0);
    expect(at('2026-11-19')).toBe(0);
  });

  test('£100 the day after the deadline', () => {
    expect(at('2026-11-20')).toBe(10_000);
    expect(at('2027-01-19')).toBe(10_000);
  });

  test('£200 more once over 2 months late', () => {
    expect(at('2027-01-20')).toBe(30_000);
    expect(at('2027-05-19')).toBe(30_000);
  });

  test('over 6 months: the greater of £300 and 5% of the deductions', () => {
    expect(at('2027-05-20')).toBe(60_000);
    // 5% of £10,000 deducted is £500, more than £300.
    expect(at('2027-05-20', 1_000_000)).toBe(80_000);
  });

  test('over 12 months: the same again', () => {
    expect(at('2027-11-19')).toBe(60_000);
    expect(at('2027-11-20')).toBe(90_000);
    expect(at('2027-11-20', 1_000_000)).toBe(130_000);
  });

  test('names what is charged and what comes next', () => {
    const penalty = lateFilingPenalty({ filingDeadline: '2026-11-19', asOf: '2026-11-25', cisDeductedP: 0 });
    expect(penalty.charged).toEqual([{ from: '2026-11-20', amountP: 10_000, reason: 'Return late' }]);
    expect(penalty.next).toEqual({ from: '2027-01-20', amountP: 20_000, reason: 'Over 2 months late' });
  });

  test('months are calendar months, the 31st kept to the end of a shorter month', () => {
    expect(monthsAfter('2026-11-19', 2)).toBe('2027-01-19');
    expect(monthsAfter('2026-08-31', 6)).toBe('2027-02-28');
    expect(monthsAfter('2026-12-19', 12)).toBe('2027-12-19');
  });
});

describe('periodState (issue 13: every month filed, due or overdue)', () => {
  test('on the 10th the month just ended is due, without a penalty', () => {
    const state = periodState(facts({ today: '2026-11-10' }));
    expect(state).toMatchObject({ status: 'due', filingDeadline: '2026-11-19', nil: false });
    expect(state.penalty.totalP).toBe(0);
  });

  test('on the 25th last month’s unfiled return is overdue with £100', () => {
    const state = periodState(facts());
    expect(state.status).toBe('overdue');
    expect(state.penalty.totalP).toBe(10_000);
  });

  test('a month that has not ended is in progress; it can be submitted from the 6th', () => {
    const state = periodState(facts({ label: '2026-11' }));
    expect(state).toMatchObject({ status: 'in_progress', submittableFrom: '2026-12-06' });
  });

  test('a month marked filed elsewhere, before this product or inactive is not overdue', () => {
    for (const mark of ['filed_elsewhere', 'before_product', 'inactive'] as const) {
      const state = periodState(facts({ mark, today: '2027-06-01' }));
      expect(state.status).toBe(mark);
      expect(state.penalty.totalP).toBe(0);
    }
  });

  test('a return filed here is filed; filed late, its penalty is as at its filing date', () => {
    expect(periodState(facts({ filedOn: '2026-11-12' }))).toMatchObject({
      status: 'filed',
      penalty: { totalP: 0 },
    });
    expect(periodState(facts({ filedOn: '2026-11-22', today: '2027-06-01' })).penalty.totalP).toBe(10_000);
  });

  test('nil months owe a nil return from 6 April 2026, not before', () => {
    expect(periodState(facts({ paidInvoices: 0, cisDeductedP: 0 }))).toMatchObject({
      status: 'overdue',
      nil: true,
      penalty: { totalP: 10_000 },
    });
    expect(periodState(facts({ label: '2026-04', today: '2026-05-10', paidInvoices: 0 })).status).toBe('due');
    expect(periodState(facts({ label: '2026-03', today: '2026-11-25', paidInvoices: 0 })).status).toBe(
      'not_required',
    );
    expect(periodState(facts({ label: '2026-03', today: '2026-11-25', paidInvoices: 1 })).status).toBe(
      'overdue',
    );
  });
});

describe('dueTaxMonth (the return the Returns page opens on)', () => {
  test('the month just ended while it is due or overdue', () => {
    expect(dueTaxMonth('2026-11-10', 'due')).toBe('2026-10');
    expect(dueTaxMonth('2026-11-25', 'overdue')).toBe('2026-10');
  });

  test('the month in progress once the month just ended is settled', () => {
    expect(dueTaxMonth('2026-11-10', 'filed')).toBe('2026-11');
    expect(dueTaxMonth('2026-11-10', 'filed_elsewhere')).toBe('2026-11');
    expect(dueTaxMonth('2026-11-10', undefined)).toBe('2026-11');
  });

  test('1–5 of a calendar month are still the tax month before', () => {
    expect(dueTaxMonth('2026-12-03', 'due')).toBe('2026-10');
  });
});

describe('taxMonthsBack', () => {
  test('newest first, across a year end', () => {
    expect(taxMonthsBack('2025-11', '2026-02')).toEqual(['2026-02', '2026-01', '2025-12', '2025-11']);
    expect(taxMonthsBack('2026-03', '2026-02')).toEqual([]);
  });
});

describe('submitTooEarly (no return before its month ends)', () => {
  test('refused up to and including the 5th, allowed from the 6th', () => {
    expect(submitTooEarly('2026-11', '2026-11-25')).toBe(
      'The return for the month ending 5 December 2026 cannot be submitted before the month ends: it can be submitted from 6 December 2026.',
    );
    expect(submitTooEarly('2026-11', '2026-12-05')).not.toBeNull();
    expect(submitTooEarly('2026-11', '2026-12-06')).toBeNull();
  });
});

describe('markRefusal', () => {
  const base = { label: '2026-10', today: '2026-11-25', filedOn: null, paidInvoices: 0 };

  test('a month filed here cannot be marked', () => {
    expect(markRefusal({ ...base, filedOn: '2026-11-12' }, 'filed_elsewhere')).toMatch(/submitted here/);
  });

  test('a month not yet ended cannot be marked filed elsewhere or before this product', () => {
    expect(markRefusal({ ...base, label: '2026-11' }, 'filed_elsewhere')).toBe(
      'The month ending 5 December 2026 has not ended yet, so it cannot be marked as filed elsewhere.',
    );
    expect(markRefusal({ ...base, label: '2026-11' }, 'inactive')).toBeNull();
  });

  test('inactivity only for a month without payments', () => {
    expect(markRefusal({ ...base, paidInvoices: 1 }, 'inactive')).toMatch(/Payments are recorded/);
    expect(markRefusal(base, 'filed_elsewhere')).toBeNull();
  });
});

describe('pastDeadlineAlerts (issue 13: the dashboard warns about past months too)', () => {
  test('an overdue return with its penalty, and statements left unissued after their deadline', () => {
    expect(
      pastDeadlineAlerts({
        today: '2026-11-25',
        overdueReturns: [{ label: '2026-10', filingDeadline: '2026-11-19', penaltyP: 10_000 }],
        pendingStatements: [
          { taxMonth: '2026-09', count: 2 },
          { taxMonth: '2026-11', count: 1 },
        ],
      }),
    ).toEqual([
      {
        kind: 'statements',
        label: '2026-09',
        date: '2026-10-19',
        daysRemaining: -37,
        severity: 'high',
        message:
          'Payment and deduction statements for the month ending 5 October 2026 overdue since 19 October 2026: 2 not issued',
      },
      {
        kind: 'filing',
        label: '2026-10',
        date: '2026-11-19',
        daysRemaining: -6,
        severity: 'critical',
        message:
          'CIS300 return for the month ending 5 November 2026 overdue since 19 November 2026: late-filing penalty £100.00',
      },
    ]);
  });
});
