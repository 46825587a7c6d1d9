import {
  invoiceTransition,
  REJECTED_NOT_CANCELLABLE,
  REJECTION_MESSAGES,
  rejectionEmail,
  validateRejectionReason,
} from '../../src/domain/index.js';

describe('rejecting a portal invoice (issue 13)', () => {
  test.each([undefined, null, '', '   ', 42])('a reason is required: %p', (reason) => {
    expect(validateRejectionReason(reason)).toEqual({ ok: false, error: REJECTION_MESSAGES.required });
  });

  test('the reason is kept trimmed, up to 500 characters', () => {
    expect(validateRejectionReason('  Wrong rate  ')).toEqual({ ok: true, reason: 'Wrong rate' });
    expect(validateRejectionReason('x'.repeat(500))).toEqual({ ok: true, reason: 'x'.repeat(500) });
    expect(validateRejectionReason('x'.repeat(501))).toEqual({
      ok: false,
      error: 'The reason must be 500 characters or fewer',
    });
  });

  test('portal pending becomes rejected, which stays rejected (cancel has its own words)', () => {
    expect(invoiceTransition('portal_draft', 'reject')).toEqual({ ok: true, to: 'rejected' });
    expect(invoiceTransition('rejected', 'cancel')).toEqual({ ok: false, error: REJECTED_NOT_CANCELLABLE });
  });

  test('the e-mail names the invoice, the contractor and the reason', () => {
    const mail = rejectionEmail({
      subcontractorName: 'Rita Roofing',
      contractorName: 'Demo Construction Ltd',
      invoiceNumber: 'RR-1',
      reason: 'Missing receipts',
    });
    expect(mail.subject).toBe('Invoice RR-1 was rejected by Demo Construction Ltd');
    expect(mail.text).toContain('Hello Rita Roofing,');
    expect(mail.text).toContain('Demo Construction Ltd has rejected invoice RR-1');
    expect(mail.text).toContain('\nMissing receipts\n');
  });
});
