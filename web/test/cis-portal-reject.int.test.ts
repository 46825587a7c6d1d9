// Issue 13 in the browser: the accountant rejects a portal invoice with a reason (a dialog that asks for it); the
// list's status filter finds Portal Pending and Rejected invoices; the subcontractor has the e-mail and sees the
// invoice Rejected with the reason in the portal, on a phone's width (390 px) without sideways scrolling or a clipped
// header, and a cancelled invoice there is never shown paid.
import type { Browser, Locator, Page } from 'playwright-core';
import { ControlledClock } from '@workspace/kit/testing';
import {
  createSubcontractor,
  invoiceBody,
  portalTokenOf,
  settingsBody,
  type CisHarness,
} from '@workspace/cis/testing';
import { shots } from './browser.js';
import { choose, cisStackPerFile, dialog, optionsOf } from './cis-stack.js';

let harness: CisHarness;
let browser: Browser;
let baseUrl: string;
let staff: Page;
let admin: string;

const REASON = 'The materials figure does not match the receipts. Please resend with the receipts total.';

// The 20th of November 2026: the invoices are dated the 10th and 14th, the paid one is paid today.
const clock = new ControlledClock(new Date('2026-11-20T10:00:00Z'));

cisStackPerFile(
  async (stack) => {
    ({ harness, browser, baseUrl } = stack);
    admin = await harness.signInAs('admin@demo.test');
    const settings = await harness.call(
      admin,
      'PUT',
      '/settings',
      settingsBody({ companyName: 'Demo Construction Ltd', emailFrom: 'accounts@demo-construction.test' }),
    );
    expect(settings.status).toBe(200);
    staff = await stack.newPage('admin@demo.test');
  },
  { clock },
);

const visible = (locator: Locator) => locator.waitFor({ state: 'visible', timeout: 15_000 });

/** What the page measures of itself (run in the page; the test's TypeScript has no DOM types). */
function pageWidths(page: Page) {
  return page.evaluate(() => {
    const doc = (
      globalThis as unknown as {
        document: { scrollingElement: { scrollWidth: number; clientWidth: number } };
      }
    ).document;
    return { scrollWidth: doc.scrollingElement.scrollWidth, clientWidth: doc.scrollingElement.clientWidth };
  });
}

/** An element's box and whether its content overflows it. */
function boxOf(locator: Locator) {
  return locator.evaluate((element) => {
    const el = element as unknown as {
      getBoundingClientRect(): { left: number; right: number; top: number; bottom: number };
      scrollWidth: number;
      clientWidth: number;
      scrollHeight: number;
      clientHeight: number;
    };
    const rect = el.getBoundingClientRect();
    return {
      left: rect.left,
      right: rect.right,
      overflowsX: el.scrollWidth > el.clientWidth,
      overflowsY: el.scrollHeight > el.clientHeight,
    };
  });
}

describe('rejecting a portal invoice with a reason, seen by the subcontractor (issue 13)', () => {
  it('the accountant rejects it with a reason; the subcontractor is e-mailed and sees it Rejected on a phone', async () => {
    const subcontractorId = await createSubcontractor(harness, admin, {
      name: 'Rita Roofing',
      utr: '5555555555',
      nino: 'AB123456C',
      email: 'rita@roofing.test',
    });
    // The subcontractor submits an invoice through the portal's API; a second one is paid and then cancelled.
    const portalApi = await portalTokenOf(harness, admin, subcontractorId);
    const submitted = await harness.call(portalApi, 'POST', '/portal/invoices', {
      invoiceNumber: 'RR-001',
      invoiceDate: '2026-11-14',
      grossP: 120_000,
      materialsP: 20_000,
      vatRate: 20,
    });
    expect(submitted.status).toBe(201);
    const paid = await harness.call(admin, 'POST', '/invoices', {
      ...invoiceBody(subcontractorId),
      invoiceNumber: 'RR-PAID-CANCELLED',
    });
    const paidId = (paid.body.invoice as { id: string }).id;
    expect((await harness.call(admin, 'POST', `/invoices/${paidId}/approve`)).status).toBe(200);
    expect((await harness.call(admin, 'POST', `/invoices/${paidId}/pay`, {})).status).toBe(200);
    expect((await harness.call(admin, 'POST', `/invoices/${paidId}/cancel`)).status).toBe(200);

    // Staff: the status filter offers Portal Pending and finds the invoice.
    await staff.goto(`${baseUrl}/cis/invoices`);
    const statusFilter = staff.getByLabel('Status filter');
    expect(await optionsOf(staff, statusFilter)).toEqual([
      'All statuses',
      'Draft',
      'Portal Pending',
      'Approved',
      'Paid',
      'Cancelled',
      'Rejected',
    ]);
    await choose(staff, statusFilter, 'Portal Pending');
    await staff.waitForURL(/status=portal_draft/);
    const row = staff.locator('tr', { hasText: 'RR-001' });
    await visible(row.getByText('Portal Pending'));
    expect(await staff.locator('tr', { hasText: 'RR-PAID-CANCELLED' }).count()).toBe(0);

    // Reject asks for the reason and will not go without one.
    harness.sink.clear();
    await row.getByRole('button', { name: 'Reject RR-001' }).click();
    const reject = dialog(staff, 'Reject Invoice');
    await visible(reject.getByText('Reject this portal-submitted invoice?'));
    await reject.getByRole('button', { name: 'Reject' }).click();
    await visible(reject.getByText('Give the reason for rejecting this invoice'));
    await reject.getByLabel('Reason for rejecting').fill(REASON);
    await staff.screenshot({ path: `${shots}/cis-reject-reason.png` });
    await reject.getByRole('button', { name: 'Reject' }).click();
    await visible(staff.getByText('Invoice RR-001 rejected. Rita Roofing has been emailed the reason.'));
    await reject.waitFor({ state: 'detached' });

    await choose(staff, statusFilter, 'Rejected');
    const rejectedRow = staff.locator('tr', { hasText: 'RR-001' });
    await visible(rejectedRow.locator('.ant-tag', { hasText: 'Rejected' }));
    await visible(rejectedRow.getByText(REASON));
    await staff.screenshot({ path: `${shots}/cis-invoices-rejected.png` });
    await rejectedRow.getByRole('link', { name: 'RR-001' }).click();
    await visible(staff.getByText(/^Rejected on \d\d\/\d\d\/\d{4}/));
    await visible(staff.getByText(`Reason: ${REASON}`));
    expect(await staff.getByRole('button', { name: 'Reject' }).count()).toBe(0);
    await staff.screenshot({ path: `${shots}/cis-invoice-rejected-detail.png` });

    // The e-mail, from the contractor (handed to the SMTP sink before the rejection answered).
    const sent = harness.sink.messages().find((m) => m.to.includes('rita@roofing.test'));
    expect(sent).toMatchObject({
      subject: 'Invoice RR-001 was rejected by Demo Construction Ltd',
      fromName: 'Demo Construction Ltd',
      replyTo: ['accounts@demo.test'],
    });
    expect(sent?.text).toContain(REASON);

    // The portal on a phone.
    const invite = await harness.call(admin, 'POST', '/subcontractors/invite', { subcontractorId });
    const { pathname, search } = new URL(String(invite.body.magicLink));
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB' });
    await phone.clock.install({ time: clock.now() });
    try {
      const portal = await phone.newPage();
      await portal.goto(`${baseUrl}${pathname}${search}`);
      await portal.waitForURL(/\/portal\/dashboard$/);
      await visible(portal.getByTestId('portal-subcontractor').getByText('Rita Roofing'));
      await portal.getByRole('link', { name: 'Invoices', exact: true }).click();
      await portal.waitForURL(/\/portal\/invoices$/);
      const invoices = portal.locator('.ant-card', { has: portal.getByText('Invoices', { exact: true }) });
      // On a phone each invoice is a block of its own, not a table row.
      expect(await invoices.locator('table').count()).toBe(0);
      const portalRow = invoices.getByTestId('portal-invoice').filter({ hasText: 'RR-001' });
      await visible(portalRow.locator('.ant-tag', { hasText: 'Rejected' }));
      await visible(portalRow.getByTestId('portal-rejection-reason').getByText(`Reason: ${REASON}`));
      const cancelledRow = invoices.getByTestId('portal-invoice').filter({ hasText: 'RR-PAID-CANCELLED' });
      await visible(cancelledRow.locator('.ant-tag', { hasText: 'Cancelled' }));
      await visible(cancelledRow.getByText('Paid: -', { exact: true }));
      expect(await cancelledRow.getByText(/\d\d\/\d\d\/2026/).count()).toBe(1); // its invoice date only
      await portal.screenshot({ path: `${shots}/cis-portal-rejected-390.png`, fullPage: true });

      // No sideways scroll, and the header's parts all inside the screen.
      const widths = await pageWidths(portal);
      expect(widths.scrollWidth).toBeLessThanOrEqual(widths.clientWidth);
      const header = portal.getByTestId('portal-header');
      const headerBox = await boxOf(header);
      expect(headerBox).toMatchObject({ overflowsX: false, overflowsY: false });
      // The header's parts, and the rejection with its reason, on the screen without scrolling the table sideways.
      for (const part of [
        header.getByText('Rita Roofing'),
        header.getByRole('button', { name: 'Log out' }),
        portalRow.locator('.ant-tag', { hasText: 'Rejected' }),
        portalRow.getByTestId('portal-rejection-reason'),
      ]) {
        const box = await boxOf(part);
        expect(box.left).toBeGreaterThanOrEqual(0);
        expect(box.right).toBeLessThanOrEqual(390);
      }
    } finally {
      await phone.close();
    }
  });
});
