import {
  amendmentId,
  badgeColour,
  INVOICE_STATUSES,
  invoiceActions,
  invoiceStatusLabel,
  invoiceTransition,
  isStatementPending,
  normaliseInvoiceStatus,
  returnDisplayStatus,
  returnTransition,
  STATEMENT_INVOICE_STATUSES,
  statementDeadlineState,
  statementRequired,
  statementTransition,
  SUBCONTRACTOR_STATES,
  verificationRate,
  type InvoiceAction,
  type VerificationStatus,
} from '../../src/domain/index.js';

describe('invoice status (spec §4)', () => {
  test('the status set', () => {
    expect(INVOICE_STATUSES).toEqual(['draft', 'portal_draft', 'approved', 'paid', 'cancelled', 'rejected']);
  });

  test.each([
    ['draft', 'Draft'],
    ['portal_draft', 'Portal Pending'],
    ['approved', 'Approved'],
    ['paid', 'Paid'],
    ['cancelled', 'Cancelled'],
    ['rejected', 'Rejected'],
    [undefined, 'Draft'],
    [null, 'Draft'],
    ['', 'Draft'],
    ['weird', 'Draft'],
  ])('label of %p is %s', (status, label) => {
    expect(invoiceStatusLabel(status)).toBe(label);
  });

  test.each([
    ['paid', 'paid'],
    ['unknown', 'draft'],
    [42, 'draft'],
  ])('normaliseInvoiceStatus(%p) = %s', (status, expected) => {
    expect(normaliseInvoiceStatus(status)).toBe(expected);
  });

  // from, action, to (null = refused)
  test.each<[string, InvoiceAction, string | null]>([
    ['draft', 'approve', 'approved'],
    ['portal_draft', 'approve', 'approved'],
    ['approved', 'approve', null],
    ['paid', 'approve', null],
    ['cancelled', 'approve', null],
    ['portal_draft', 'reject', 'rejected'],
    ['rejected', 'reject', null],
    ['rejected', 'approve', null],
    ['rejected', 'pay', null],
    ['rejected', 'cancel', null],
    ['rejected', 'edit', null],
    ['rejected', 'delete', 'rejected'],
    ['draft', 'reject', null],
    ['approved', 'reject', null],
    ['approved', 'pay', 'paid'],
    ['draft', 'pay', null],
    ['portal_draft', 'pay', null],
    ['paid', 'pay', null],
    ['draft', 'cancel', 'cancelled'],
    ['portal_draft', 'cancel', 'cancelled'],
    ['approved', 'cancel', 'cancelled'],
    ['paid', 'cancel', 'cancelled'],
    ['cancelled', 'cancel', null],
    ['draft', 'edit', 'draft'],
    ['portal_draft', 'edit', null],
    ['approved', 'edit', null],
    ['paid', 'edit', null],
    ['cancelled', 'edit', null],
    ['draft', 'delete', 'draft'],
    ['portal_draft', 'delete', 'portal_draft'],
    ['cancelled', 'delete', 'cancelled'],
    ['approved', 'delete', null],
    ['paid', 'delete', null],
    ['mystery', 'approve', 'approved'], // unknown counts as draft
    ['mystery', 'edit', 'draft'],
  ])('%s --%s--> %p', (from, action, to) => {
    const result = invoiceTransition(from, action);
    if (to === null) {
      expect(result.ok).toBe(false);
      expect(result).toHaveProperty('error');
    } else {
      expect(result).toEqual({ ok: true, to });
    }
  });

  test.each([
    ['approve', 'Only draft or portal-pending invoices can be approved'],
    ['pay', 'Only approved invoices can be marked as paid'],
    ['edit', 'Only draft invoices can be edited'],
  ] as const)('refusal message of %s', (action, error) => {
    expect(invoiceTransition('cancelled', action)).toEqual({ ok: false, error });
  });

  test.each([
    ['draft', ['approve', 'cancel', 'edit', 'delete']],
    ['portal_draft', ['approve', 'reject', 'cancel', 'delete']],
    ['approved', ['pay', 'cancel']],
    ['paid', ['cancel']],
    ['cancelled', ['delete']],
    ['rejected', ['delete']],
  ])('actions of %s', (status, actions) => {
    expect(invoiceActions(status)).toEqual(actions);
  });

  test.each([
    [0, false],
    [1, true],
    [44000, true],
    [-1, false],
  ])('statementRequired(%i) = %p', (deduction, required) => {
    expect(statementRequired(deduction)).toBe(required);
  });

  test('only approved and paid invoices are grouped into statements', () => {
    expect(STATEMENT_INVOICE_STATUSES).toEqual(['approved', 'paid']);
  });

  test.each([
    [{ status: 'approved', statement: { required: true, issuedAt: null } }, true],
    [{ status: 'approved', statement: { required: true } }, true],
    [{ status: 'approved', statement: { required: true, issuedAt: '2025-06-10T10:00:00Z' } }, false],
    [{ status: 'approved', statement: { required: false } }, false],
    [{ status: 'paid', statement: { required: true } }, false],
    [{ status: 'draft', statement: { required: true } }, false],
    [{ status: 'approved', statement: null }, false],
    [{ status: 'approved', statement: { required: true }, deletedAt: '2025-06-01' }, false],
  ])('pending statement %p → %p', (invoice, pending) => {
    expect(isStatementPending(invoice)).toBe(pending);
  });
});

describe('subcontractor (spec §4)', () => {
  test('states', () => {
    expect(SUBCONTRACTOR_STATES).toEqual(['active', 'archived']);
  });

  test.each<[VerificationStatus, number]>([
    ['gross', 0],
    ['standard', 20],
    ['higher', 30],
  ])('verification %s → %i%%', (status, rate) => {
    expect(verificationRate(status)).toBe(rate);
  });

  test('an unknown verification status throws', () => {
    expect(() => verificationRate('net' as VerificationStatus)).toThrow('Invalid verification status: net');
  });
});

describe('statement (spec §4)', () => {
  test.each([
    [null, 'generate', {}, { ok: true, to: 'generated' }],
    ['none', 'generate', {}, { ok: true, to: 'generated' }],
    [
      'generated',
      'generate',
      { subcontractorName: 'Acme Ltd' },
      { ok: false, error: 'Statement already exists for Acme Ltd for this tax month' },
    ],
    [
      'issued',
      'generate',
      {},
      { ok: false, error: 'Statement already exists for this subcontractor for this tax month' },
    ],
    ['generated', 'issue', { method: 'email' }, { ok: true, to: 'issued' }],
    ['generated', 'issue', { method: 'portal' }, { ok: true, to: 'issued' }],
    ['generated', 'issue', { method: 'print' }, { ok: true, to: 'issued' }],
    ['issued', 'issue', { method: 'print' }, { ok: true, to: 'issued' }],
    [
      'generated',
      'issue',
      { method: 'fax' },
      { ok: false, error: 'Issue method must be email, portal or print' },
    ],
    ['generated', 'issue', {}, { ok: false, error: 'Issue method must be email, portal or print' }],
    ['none', 'issue', { method: 'email' }, { ok: false, error: 'Statement not found' }],
  ] as const)('%p --%s %p--> %p', (status, action, options, expected) => {
    expect(statementTransition(status, action, options)).toEqual(expected);
  });

  test.each([
    [-10, 'overdue'],
    [-1, 'overdue'],
    [0, 'urgent'],
    [1, 'urgent'],
    [3, 'urgent'],
    [4, 'pending'],
    [14, 'pending'],
  ])('%i days remaining → %s', (days, state) => {
    expect(statementDeadlineState(days)).toBe(state);
  });
});

describe('return (spec §4)', () => {
  const draft = { id: '2025-06', status: 'draft', locked: false };
  const submitted = { id: '2025-06', status: 'submitted', locked: true };

  test.each([
    [null, 'Not compiled'],
    [undefined, 'Not compiled'],
    [draft, 'draft'],
    [{ status: 'nil', locked: false }, 'nil'],
    // Issue 13: a locked return shows 'Submitted', not the bare 'Locked' of cis.md section 4.
    [submitted, 'Submitted'],
    [{ status: 'draft', locked: true }, 'Submitted'],
    [{ status: 'amended', locked: true }, 'Submitted'],
  ])('display of %p is %s', (ret, label) => {
    expect(returnDisplayStatus(ret)).toBe(label);
  });

  test.each([
    ['compile', null, { taxMonth: '2025-06' }, { ok: true, to: 'draft' }],
    ['compile', null, { taxMonth: '2025-06', lineCount: 0 }, { ok: true, to: 'nil' }],
    ['compile', null, {}, { ok: false, error: 'Tax month is required' }],
    ['compile', null, { taxMonth: '  ' }, { ok: false, error: 'Tax month is required' }],
    ['compile', draft, { lineCount: 3 }, { ok: true, to: 'draft' }],
    ['compile', submitted, {}, { ok: false, error: 'Return is already locked' }],
    ['recompile', draft, { lineCount: 0 }, { ok: true, to: 'nil' }],
    ['recompile', null, {}, { ok: false, error: 'Return not found' }],
    ['recompile', submitted, {}, { ok: false, error: 'Return is already locked' }],
    ['submit', draft, {}, { ok: true, to: 'submitted' }],
    ['submit', { status: 'nil', locked: false }, {}, { ok: true, to: 'submitted' }],
    ['submit', draft, { validation: { valid: true, issues: [] } }, { ok: true, to: 'submitted' }],
    [
      'submit',
      draft,
      {
        validation: {
          valid: false,
          issues: ['Tax month is required', 'Line 1: Materials exceed gross amount'],
        },
      },
      {
        ok: false,
        error: 'Return validation failed: Tax month is required; Line 1: Materials exceed gross amount',
      },
    ],
    ['submit', null, {}, { ok: false, error: 'Return not found' }],
    ['submit', submitted, {}, { ok: false, error: 'Return is already locked' }],
    ['amend', submitted, {}, { ok: true, to: 'amended' }],
    ['amend', draft, {}, { ok: false, error: 'Can only amend submitted returns' }],
    [
      'amend',
      { status: 'draft', locked: true },
      {},
      { ok: false, error: 'Can only amend submitted returns' },
    ],
    ['amend', null, {}, { ok: false, error: 'Return not found' }],
    ['unlock', submitted, {}, { ok: true, to: 'draft' }],
    ['unlock', draft, {}, { ok: false, error: 'Return is not locked' }],
    ['unlock', null, {}, { ok: false, error: 'Return not found' }],
  ] as const)('%s on %p with %p → %p', (action, ret, options, expected) => {
    expect(returnTransition(ret, action, options)).toEqual(expected);
  });

  test('amendment id', () => {
    expect(amendmentId('2025-06', 1750000000000)).toBe('2025-06-AMD-1750000000000');
    expect(amendmentId('2025-06', '20250620T101500Z')).toBe('2025-06-AMD-20250620T101500Z');
  });

  test.each([
    ['paid', 'green'],
    ['approved', 'blue'],
    ['draft', 'grey'],
    ['submitted', 'purple'],
    ['cancelled', 'red'],
    ['amended', 'red'],
    ['nil', 'red'],
    [undefined, 'red'],
  ])('badge colour of %p is %s', (status, colour) => {
    expect(badgeColour(status)).toBe(colour);
  });
});
