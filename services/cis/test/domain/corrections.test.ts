import {
  correctionRefusedMessage,
  paymentDateError,
  statementChangedSinceIssue,
  submittedMonthWarning,
} from '../../src/domain/index.js';

describe('a payment date (issue 13)', () => {
  it('is refused after today, accepted today and before, and must be a date', () => {
    expect(paymentDateError('2026-11-11', '2026-11-10')).toBe('Payment date cannot be after today');
    expect(paymentDateError('2026-12-17', '2026-11-10')).toBe('Payment date cannot be after today');
    expect(paymentDateError('2026-11-10', '2026-11-10')).toBeNull();
    expect(paymentDateError('2025-01-01', '2026-11-10')).toBeNull();
    expect(paymentDateError('2026-02-30', '2026-11-10')).toBe('Payment date must be a date (YYYY-MM-DD)');
    expect(paymentDateError('', '2026-11-10')).toBe('Payment date is required');
  });
});

describe('the warning before a change into a submitted month', () => {
  it('names the month as HMRC does and says what happens to the return', () => {
    expect(submittedMonthWarning('pay', ['2026-10'])).toBe(
      'The return for the month ending 5 November 2026 has already been submitted. Marking this invoice paid ' +
        'changes it: the return will show as changed since submission and will need an amendment.',
    );
    expect(submittedMonthWarning('cancel', ['2026-09', '2026-10'])).toBe(
      'The returns for the month ending 5 October 2026 and the month ending 5 November 2026 have already been ' +
        'submitted. Cancelling this invoice changes them: each will show as changed since submission and will ' +
        'need an amendment.',
    );
    expect(correctionRefusedMessage('2026-10')).toContain('month ending 5 November 2026 has been submitted');
  });
});

describe('an issued statement changed since issue', () => {
  const statement = { invoiceIds: ['a', 'b'], grossP: 3000, materialsP: 500, cisDeductionP: 500 };
  const a = { id: 'a', grossP: 1000, materialsP: 500, cisDeductionP: 100 };
  const b = { id: 'b', grossP: 2000, materialsP: 0, cisDeductionP: 400 };

  it('is not while the same invoices, with the same totals, are paid in its month', () => {
    expect(statementChangedSinceIssue(statement, [b, a])).toBe(false);
  });

  it('is when an invoice was paid into the month, cancelled or moved out, or the totals differ', () => {
    expect(statementChangedSinceIssue(statement, [a, b, { ...a, id: 'c' }])).toBe(true);
    expect(statementChangedSinceIssue(statement, [a])).toBe(true);
    expect(statementChangedSinceIssue(statement, [])).toBe(true);
    expect(statementChangedSinceIssue(statement, [a, { ...b, id: 'c' }])).toBe(true);
    expect(statementChangedSinceIssue(statement, [a, { ...b, cisDeductionP: 399 }])).toBe(true);
  });
});
