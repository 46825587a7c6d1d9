// Rejecting a portal invoice (issue 13): staff give a reason, the subcontractor reads it in the portal and by e-mail.

/** The longest reason kept: a few sentences a subcontractor reads in the portal and in an e-mail. */
export const REJECTION_REASON_MAX = 500;

export const REJECTION_MESSAGES = {
  required: 'Give the reason for rejecting this invoice',
  tooLong: `The reason must be ${REJECTION_REASON_MAX} characters or fewer`,
} as const;

/** The reason as stored (trimmed, on one paragraph's worth of lines), or the message saying what is wrong. */
export function validateRejectionReason(
  reason: unknown,
): { ok: true; reason: string } | { ok: false; error: string } {
  const trimmed = typeof reason === 'string' ? reason.trim() : '';
  if (!trimmed) return { ok: false, error: REJECTION_MESSAGES.required };
  if (trimmed.length > REJECTION_REASON_MAX) return { ok: false, error: REJECTION_MESSAGES.tooLong };
  return { ok: true, reason: trimmed };
}

export interface RejectionNotice {
  subcontractorName: string;
  contractorName: string;
  invoiceNumber: string;
  reason: string;
}

/** The e-mail telling a subcontractor their invoice was rejected, and why. */
export function rejectionEmail(notice: RejectionNotice): { subject: string; text: string } {
  return {
    subject: `Invoice ${notice.invoiceNumber} was rejected by ${notice.contractorName}`,
    text: [
      `Hello ${notice.subcontractorName},`,
      '',
      `${notice.contractorName} has rejected invoice ${notice.invoiceNumber}, which you submitted through their subcontractor portal.`,
      '',
      'The reason given:',
      '',
      notice.reason,
      '',
      'The invoice is shown as Rejected, with this reason, in the portal. You can submit a corrected invoice there, under the same invoice number if you wish.',
      '',
      `Reply to this e-mail to reach ${notice.contractorName}.`,
    ].join('\n'),
  };
}
