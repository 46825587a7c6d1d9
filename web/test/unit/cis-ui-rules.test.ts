// The CIS screens' pure rules: display formats, the top bar's section and mode, problem+json mapping, which
// invoice actions a caller is offered, and the invoice form's client-side checks.
import type { Abilities, Invoice } from '@workspace/cis/contract';
import { changedPaths } from '../../src/features/cis/components/formErrors';
import { invoiceAllows, statementPending } from '../../src/features/cis/components/invoiceActions';
import { cisMode, cisSection } from '../../src/features/cis/components/sections';
import { tagColour } from '../../src/features/cis/components/statusColour';
import { amountInputError, validateInvoiceForm } from '../../src/features/cis/validation';
import { NA, pounds, ukDate } from '../../src/ui/format';
import { errorMessage, errorStatus, fieldErrors, toFormFields } from '../../src/ui/problem';

const none: Abilities = {
  canView: true,
  canManage: false,
  canViewSettings: false,
  canUnmask: false,
  canReadSubcontractors: false,
  canWriteSubcontractors: false,
  canVerify: false,
  canReadInvoices: true,
  canWrite: false,
  canPay: false,
  canApprove: false,
  canIssueStatements: false,
  canCompile: false,
  canSubmit: false,
  canImport: false,
  canExport: false,
  canRunJobs: false,
  canInvite: false,
  canReadAudit: false,
};

const invoice = (status: string, extra: Partial<Invoice> = {}): Invoice =>
  ({ id: 'i1', invoiceNumber: 'INV-1', status, statement: null, ...extra }) as Invoice;

describe('CIS display formats', () => {
  it('shows dates as DD/MM/YYYY in Europe/London and unreadable dates as N/A', () => {
    expect(ukDate('2026-01-05')).toBe('05/01/2026');
    expect(ukDate('2025-06-30T23:30:00Z')).toBe('01/07/2025'); // BST: already 1 July in London
    expect(ukDate('2025-02-30')).toBe(NA);
    expect(ukDate('not a date')).toBe(NA);
    expect(ukDate(null)).toBe(NA);
  });

  it('shows pence as pounds with pence', () => {
    expect(pounds(123456)).toBe('£1,234.56');
    expect(pounds(5)).toBe('£0.05');
    expect(pounds(undefined)).toBe('£0.00');
  });

  it('colours badges: paid green, approved blue, draft grey, submitted purple, other red', () => {
    expect(tagColour('paid')).toBe('green');
    expect(tagColour('approved')).toBe('blue');
    expect(tagColour('draft')).toBe('default');
    expect(tagColour('submitted')).toBe('purple');
    expect(tagColour('cancelled')).toBe('red');
  });
});

describe('CIS top bar', () => {
  it('picks the section from the path, else dashboard', () => {
    expect(cisSection('/cis')).toBe('dashboard');
    expect(cisSection('/cis/invoices/abc')).toBe('invoices');
    expect(cisSection('/cis/settings')).toBe('settings');
    expect(cisSection('/cis/unknown')).toBe('dashboard');
  });

  it('tells list, detail and form modes apart', () => {
    expect(cisMode('/cis/subcontractors')).toBe('list');
    expect(cisMode('/cis/subcontractors/new')).toBe('form');
    expect(cisMode('/cis/subcontractors/abc/edit')).toBe('form');
    expect(cisMode('/cis/invoices/import')).toBe('form');
    expect(cisMode('/cis/invoices/abc')).toBe('detail');
  });
});

describe('problem+json', () => {
  const failure = {
    status: 400,
    data: {
      status: 400,
      code: 'validation',
      detail: 'Request validation failed',
      errors: [
        { field: 'body.utr', message: 'Valid UTR required (10 digits)' },
        { field: 'body.registeredAddress.line1', message: 'Address line 1 is required' },
      ],
    },
  };

  it('maps body.x field errors to the form fields', () => {
    expect(fieldErrors(failure)).toEqual({
      utr: 'Valid UTR required (10 digits)',
      'registeredAddress.line1': 'Address line 1 is required',
    });
    expect(toFormFields({ 'registeredAddress.line1': 'x' })).toEqual([
      { name: ['registeredAddress', 'line1'], errors: ['x'] },
    ]);
  });

  it('reads the message and status, with a fallback', () => {
    expect(errorMessage(failure)).toBe('Request validation failed');
    expect(errorStatus(failure)).toBe(400);
    expect(errorMessage({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toBe(
      'TypeError: Failed to fetch',
    );
    expect(errorMessage(undefined, 'Failed to submit return')).toBe('Failed to submit return');
  });

  it('lists the leaf paths a form change touched (to clear their errors)', () => {
    expect(changedPaths({ registeredAddress: { city: 'Leeds' } })).toEqual([['registeredAddress', 'city']]);
    expect(changedPaths({ name: 'A' })).toEqual([['name']]);
  });
});

describe('invoice actions offered', () => {
  it('offers edit only on drafts, approve on draft and portal_draft, pay only on approved', () => {
    const all = { ...none, canWrite: true, canApprove: true, canPay: true };
    expect(invoiceAllows(invoice('draft'), 'edit', all)).toBe(true);
    expect(invoiceAllows(invoice('approved'), 'edit', all)).toBe(false);
    expect(invoiceAllows(invoice('portal_draft'), 'approve', all)).toBe(true);
    expect(invoiceAllows(invoice('portal_draft'), 'reject', all)).toBe(true);
    expect(invoiceAllows(invoice('draft'), 'reject', all)).toBe(false);
    expect(invoiceAllows(invoice('approved'), 'pay', all)).toBe(true);
    expect(invoiceAllows(invoice('draft'), 'pay', all)).toBe(false);
    expect(invoiceAllows(invoice('mystery'), 'edit', all)).toBe(true); // unknown status is draft
  });

  it('needs the flag as well as the status', () => {
    expect(invoiceAllows(invoice('draft'), 'approve', none)).toBe(false);
    expect(invoiceAllows(invoice('approved'), 'pay', { ...none, canWrite: true })).toBe(false);
    expect(invoiceAllows(invoice('draft'), 'view', none)).toBe(true);
  });

  it('says Statement pending while a required statement is not issued', () => {
    const required = {
      required: true,
      requestedAt: null,
      requestedBy: null,
      issuedAt: null,
      issuedMethod: null,
      statementId: null,
    };
    expect(statementPending({ status: 'paid', statement: required })).toBe(true);
    expect(
      statementPending({ status: 'paid', statement: { ...required, issuedAt: '2026-01-10T10:00:00Z' } }),
    ).toBe(false);
    expect(statementPending({ status: 'approved', statement: null })).toBe(false);
    // Issue 13: a cancelled invoice never waits for a statement.
    expect(statementPending({ status: 'cancelled', statement: required })).toBe(false);
  });
});

describe('invoice form checks', () => {
  const valid = {
    invoiceNumber: 'INV-1',
    subcontractorId: 's1',
    invoiceDate: '2026-01-10',
    gross: '1000.00',
    materials: '100',
    vatRate: 20,
    materialsJustification: '',
  };

  it('passes a valid invoice', () => {
    expect(validateInvoiceForm(valid)).toEqual({});
  });

  it('puts the domain messages on the form fields', () => {
    const errors = validateInvoiceForm({ ...valid, invoiceNumber: '', subcontractorId: '', gross: 'abc' });
    expect(errors.invoiceNumber).toBe('Valid invoice number required');
    expect(errors.subcontractorId).toBe('Subcontractor is required');
    expect(errors.gross).toBe('Invalid gross amount');
    expect(validateInvoiceForm({ ...valid, materials: '2000' }).materials).toBe(
      'Materials cannot exceed gross amount',
    );
    expect(validateInvoiceForm({ ...valid, materials: '700' }).materialsJustification).toBe(
      'Materials justification required when materials exceed 60%',
    );
  });
});

describe('amounts as the user types them (issue 13)', () => {
  it('names what is wrong with abc, 1000.005 and a negative amount, and passes amounts and blank', () => {
    expect(amountInputError('abc', 'gross')).toBe('Invalid gross amount');
    expect(amountInputError('1000.005', 'gross')).toBe(
      'Gross amount can have at most 2 decimal places (pence)',
    );
    expect(amountInputError('12.345', 'materials')).toBe(
      'Materials amount can have at most 2 decimal places (pence)',
    );
    expect(amountInputError('-5', 'gross')).toBe('Gross amount cannot be negative');
    expect(amountInputError('abc', 'materials')).toBe('Invalid materials amount');
    for (const amount of ['1000', '1000.5', '£1,250.50', '0', '', '  '])
      expect(amountInputError(amount, 'gross')).toBeNull();
  });

  it('puts the same message on the field when the form is saved', () => {
    const values = {
      invoiceNumber: 'INV-1',
      subcontractorId: 's1',
      invoiceDate: '2026-01-10',
      gross: '1000.005',
      materials: 'abc',
      vatRate: 20,
      materialsJustification: '',
    };
    expect(validateInvoiceForm(values)).toMatchObject({
      gross: 'Gross amount can have at most 2 decimal places (pence)',
      materials: 'Invalid materials amount',
    });
  });
});
