// Issue 13: staff reject a portal invoice with a reason. It becomes Rejected (its own status, not Cancelled), the
// reason is kept and shown to staff and to the subcontractor in the portal, and the subcontractor is e-mailed the
// reason from the contractor: its name and Reply-To always, its address only on a domain set up to send (none here).
import { REJECTION_MESSAGES, REJECTION_REASON_MAX } from '../src/domain/index.js';
import {
  adminQuery,
  CIS_ADMIN_ID,
  createSubcontractor,
  portalTokenOf,
  settingsBody,
  useCisHarnessWithAdmin,
  type CisHarness,
} from './support.js';

let h: CisHarness;
let admin: string;
let portal: string;
let subcontractorId: string;
useCisHarnessWithAdmin(async (started) => {
  ({ h, admin } = started);
  const settings = await h.call(
    admin,
    'PUT',
    '/settings',
    settingsBody({ emailFrom: 'statements@demo-construction.test', emailReplyTo: '' }),
  );
  expect(settings.status).toBe(200);
  subcontractorId = await createSubcontractor(h, admin, {
    name: 'Rita Roofing',
    utr: '5555555555',
    nino: 'AB123456C',
    email: 'rita@roofing.test',
  });
  portal = await portalTokenOf(h, await h.signInAs('admin@demo.test'), subcontractorId);
});

const REASON = 'The materials figure does not match the receipts: please resend with the receipts total.';

const submit = async (invoiceNumber: string) => {
  const submitted = await h.call(portal, 'POST', '/portal/invoices', {
    invoiceNumber,
    invoiceDate: '2026-11-14',
    grossP: 120_000,
    materialsP: 20_000,
    vatRate: 20,
  });
  expect(submitted.status).toBe(201);
  return (submitted.body.invoice as { id: string }).id;
};

describe('rejecting a portal invoice', () => {
  it('needs a reason of at most 500 characters, and changes nothing without one', async () => {
    const id = await submit('RR-100');
    for (const body of [undefined, {}, { reason: '   ' }]) {
      const refused = await h.call(admin, 'POST', `/invoices/${id}/reject`, body);
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toBe(REJECTION_MESSAGES.required);
      expect(refused.body.errors).toEqual([{ field: 'body.reason', message: REJECTION_MESSAGES.required }]);
    }
    const tooLong = await h.call(admin, 'POST', `/invoices/${id}/reject`, {
      reason: 'x'.repeat(REJECTION_REASON_MAX + 1),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.detail).toBe('The reason must be 500 characters or fewer');
    expect((await h.call(admin, 'GET', `/invoices/${id}`)).body.invoice).toMatchObject({
      status: 'portal_draft',
      statusLabel: 'Portal Pending',
      rejection: null,
    });
  });

  it('marks it Rejected with the reason for staff and the portal, e-mails the subcontractor, and audits it', async () => {
    const id = await submit('RR-101');
    h.clock.set(new Date('2026-11-20T10:00:00Z'));
    h.sink.clear();
    const rejected = await h.call(admin, 'POST', `/invoices/${id}/reject`, { reason: `  ${REASON}  ` });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({
      emailSent: true,
      invoice: {
        id,
        status: 'rejected',
        statusLabel: 'Rejected',
        // Stamped on the business clock's day (set below), by the user who rejected it.
        rejection: {
          reason: REASON,
          rejectedAt: expect.stringMatching(/^2026-11-20T10:/),
          rejectedBy: CIS_ADMIN_ID,
        },
        actions: ['delete'],
      },
    });

    // Staff: the detail and the list, whose status filter finds it.
    expect((await h.call(admin, 'GET', `/invoices/${id}`)).body.invoice).toMatchObject({
      status: 'rejected',
      rejection: { reason: REASON },
    });
    const listed = await h.call(admin, 'GET', '/invoices?status=rejected');
    expect(listed.body.items).toEqual([
      expect.objectContaining({
        id,
        statusLabel: 'Rejected',
        rejection: expect.objectContaining({ reason: REASON }),
      }),
    ]);
    const pending = await h.call(admin, 'GET', '/invoices?status=portal_draft');
    expect((pending.body.items as { id: string }[]).map((item) => item.id)).not.toContain(id);

    // The subcontractor, in the portal.
    const me = await h.call(portal, 'GET', '/portal/me');
    expect((me.body.invoices as { id: string }[]).find((invoice) => invoice.id === id)).toMatchObject({
      invoiceNumber: 'RR-101',
      status: 'rejected',
      statusLabel: 'Rejected',
      rejectionReason: REASON,
    });

    // The e-mail: from the contractor's name at the platform's address (its own domain is not set up to send),
    // replies to the 'Statement email from' address.
    const mail = h.sink.messages().find((message) => message.to.includes('rita@roofing.test'));
    expect(mail).toMatchObject({
      subject: 'Invoice RR-101 was rejected by Demo Construction Ltd',
      fromName: 'Demo Construction Ltd',
      from: 'no-reply@workspace.local',
      replyTo: ['statements@demo-construction.test'],
    });
    expect(mail?.text).toContain(REASON);
    expect(mail?.text).toContain('Hello Rita Roofing,');

    const [audit] = await adminQuery(
      h,
      `SELECT action, summary FROM cis.activity WHERE target_id = $1 AND action = 'cis.invoice.rejected'`,
      [id],
    );
    expect(audit).toMatchObject({ summary: 'Invoice RR-101 (Rita Roofing) rejected' });
  });

  it('keeps a rejected invoice rejected, frees its number for the corrected invoice, and rejects only portal invoices', async () => {
    const id = await submit('RR-102');
    expect((await h.call(admin, 'POST', `/invoices/${id}/reject`, { reason: REASON })).status).toBe(200);

    const again = await h.call(admin, 'POST', `/invoices/${id}/reject`, { reason: REASON });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('Only portal-submitted invoices can be rejected');
    const cancel = await h.call(admin, 'POST', `/invoices/${id}/cancel`);
    expect(cancel.status).toBe(409);
    expect(cancel.body.detail).toBe('A rejected invoice cannot be cancelled');
    const approve = await h.call(admin, 'POST', `/invoices/${id}/approve`);
    expect(approve.status).toBe(409);

    // The corrected invoice goes in under the same number.
    const corrected = await submit('RR-102');
    expect(corrected).not.toBe(id);

    const staff = await h.call(admin, 'POST', '/invoices', {
      invoiceNumber: 'RR-STAFF',
      subcontractorId,
      invoiceDate: '2026-11-14',
      grossP: 10_000,
      materialsP: 0,
      vatRate: 20,
    });
    expect(staff.status).toBe(201);
    const staffId = (staff.body.invoice as { id: string }).id;
    const draftReject = await h.call(admin, 'POST', `/invoices/${staffId}/reject`, { reason: REASON });
    expect(draftReject.status).toBe(409);
    expect(draftReject.body.detail).toBe('Only portal-submitted invoices can be rejected');

    const reader = await h.token(['cis.inv.read'], 'demo');
    expect((await h.call(reader, 'POST', `/invoices/${corrected}/reject`, { reason: REASON })).status).toBe(
      403,
    );
    const missing = await h.call(admin, 'POST', '/invoices/00000000-0000-4000-8000-00000000dead/reject', {
      reason: REASON,
    });
    expect(missing.status).toBe(404);
  });

  it('still rejects when the e-mail is refused for good, and says the subcontractor was not e-mailed', async () => {
    const id = await submit('RR-103');
    h.sink.failNext(1, 550);
    const rejected = await h.call(admin, 'POST', `/invoices/${id}/reject`, { reason: REASON });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ emailSent: false, invoice: { status: 'rejected' } });
  });
});
