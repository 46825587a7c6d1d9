// Journeys: CIS and the notification service (issue 15, ADR 0052). A subcontractor submits an invoice in the portal:
// the contractor's bell counts it live and opens it. E-mail that cannot be delivered after its retries (the SMTP
// sink refusing every attempt) reaches the screens that sent it: the subcontractor's page warns that the portal
// invitation was not delivered, the statements screen marks the statement "Email not delivered"; Resend sends a new
// invitation, and the statement's kept copy again (the row then says "Email delivered").
import { currentTaxMonth, londonDate } from '@workspace/cis/domain';
import {
  ALL_CIS_SCOPES,
  CIS_ADMIN_ID,
  createSubcontractor,
  drainJobQueue,
  invoiceBody,
  portalTokenOf,
  settingsBody,
} from '@workspace/cis/testing';
import { eventually } from '@workspace/kit/testing';
import type { Page } from 'playwright-core';
import { animationsDone, shots, visible } from './browser.js';
import { cisStackPerFile, until, type CisBrowserStack } from './cis-stack.js';

let stack: CisBrowserStack;
let admin: string;

cisStackPerFile(
  async (started) => {
    stack = started;
    admin = await stack.harness.token(ALL_CIS_SCOPES, 'demo', CIS_ADMIN_ID);
    const settings = await stack.harness.call(admin, 'PUT', '/settings', settingsBody());
    if (settings.status !== 200) throw new Error(`settings: ${String(settings.status)}`);
  },
  { inAppNotifications: true },
);

afterEach(() => {
  stack.harness.sink.recover();
});

async function unreadShown(page: Page): Promise<number> {
  const count = page.getByTestId('notification-count').locator('.ant-scroll-number');
  if ((await count.count()) === 0) return 0;
  return Number((await count.first().getAttribute('title')) ?? '0');
}

describe('CIS in the bell', () => {
  it("a portal invoice: the contractor's bell counts it live, lists it, and a click opens the invoice", async () => {
    const subcontractor = await createSubcontractor(stack.harness, admin, { name: 'Bella Brickwork' });
    const portal = await portalTokenOf(
      stack.harness,
      await stack.harness.signInAs('admin@demo.test'),
      subcontractor,
    );
    const page = await stack.newPage('admin@demo.test');
    await page.goto(`${stack.baseUrl}/cis/invoices`);
    await visible(page.getByTestId('notification-bell'));
    const before = await unreadShown(page);

    const submitted = await stack.harness.call(portal, 'POST', '/portal/invoices', {
      invoiceNumber: 'BB-101',
      invoiceDate: londonDate(new Date()),
      grossP: 240_000,
      materialsP: 40_000,
      vatRate: 20,
    });
    expect(submitted.status).toBe(201);
    const invoiceId = (submitted.body.invoice as { id: string }).id;
    await until(
      () => unreadShown(page),
      (count) => count > before,
      'the bell to count the portal invoice',
      30_000,
    );
    await animationsDone(page.getByTestId('notification-count'));
    await page.getByTestId('notification-bell').click();
    const item = page
      .getByTestId('notification-item')
      .filter({ hasText: 'Portal invoice BB-101 is awaiting your approval' });
    await visible(item);
    await animationsDone(page.locator('.ant-popover').filter({ has: item }));
    await page.screenshot({ path: `${shots}/notifications-cis-portal-invoice.png` });
    await item.getByText('Portal invoice BB-101 is awaiting your approval').click();
    await page.waitForURL(`${stack.baseUrl}/cis/invoices/${invoiceId}`);
    await visible(page.getByText('BB-101').first());
    await page.screenshot({ path: `${shots}/notifications-cis-portal-invoice-opened.png` });
    await page.context().close();
  });
});

describe('dead letters on the CIS screens', () => {
  it("the subcontractor's page warns once the portal invitation could not be delivered after its retries, and Resend sends a new invitation", async () => {
    const subcontractor = await createSubcontractor(stack.harness, admin, {
      name: 'Nico Nowhere',
      email: 'nico@nowhere.test',
    });
    stack.harness.sink.failFor(60_000, 451);
    const invited = await stack.harness.call(
      await stack.harness.signInAs('admin@demo.test'),
      'POST',
      '/subcontractors/invite',
      { subcontractorId: subcontractor },
    );
    expect(invited.body).toMatchObject({ emailSent: false });
    await eventually(
      async () =>
        (await stack.harness.call(admin, 'GET', `/subcontractors/${subcontractor}`)).body
          .invitationEmailFailure ?? undefined,
      20_000,
      'the dead letter',
    );
    const page = await stack.newPage('admin@demo.test');
    await page.goto(`${stack.baseUrl}/cis/subcontractors/${subcontractor}`);
    const warning = page.getByTestId('invitation-email-failed');
    await visible(warning);
    expect(await warning.textContent()).toContain('The portal invitation email could not be delivered');
    expect(await warning.textContent()).toMatch(/\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}: .*451/);
    expect(await warning.textContent()).toContain('Please share the link manually or send a new invitation.');
    await page.screenshot({ path: `${shots}/notifications-cis-invitation-dead-letter.png` });

    // Resend: the relay takes mail again; a new invitation (a fresh link: the stored one's lasted 15 minutes) arrives.
    stack.harness.sink.recover();
    await page.getByTestId('invitation-email-resend').click();
    const dialog = page.locator('.ant-modal').filter({ hasText: 'Invitation Sent Again' });
    await visible(dialog.getByText('An invitation email has been sent to nico@nowhere.test.'));
    await animationsDone(dialog);
    await page.screenshot({ path: `${shots}/notifications-cis-invitation-resent.png` });
    const arrived = stack.harness.sink
      .messages()
      .filter((message) => message.to.includes('nico@nowhere.test'));
    expect(arrived).toHaveLength(1);
    expect(arrived[0]?.subject).toContain('has invited you to their subcontractor portal');
    expect(arrived[0]?.text).toMatch(/Open the portal: http\S+/);
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await until(
      () => page.getByTestId('invitation-email-failed').count(),
      (count) => count === 0,
      'the warning to go once the new invitation was delivered',
    );
    await page.context().close();
  });

  it('the statements screen marks an issued statement whose email could not be delivered, and Resend delivers it', async () => {
    const subcontractor = await createSubcontractor(stack.harness, admin, {
      name: 'Sam Stonewall',
      email: 'sam@stonewall.test',
    });
    const created = await stack.harness.call(
      admin,
      'POST',
      '/invoices',
      invoiceBody(subcontractor, { invoiceNumber: 'SW-1' }),
    );
    const invoiceId = (created.body.invoice as { id: string }).id;
    await stack.harness.call(admin, 'POST', `/invoices/${invoiceId}/approve`);
    await stack.harness.call(admin, 'POST', `/invoices/${invoiceId}/pay`, {
      paymentDate: londonDate(new Date()),
    });
    await drainJobQueue(stack.harness);
    const month = currentTaxMonth();
    const group = async () =>
      (
        (await stack.harness.call(admin, 'GET', `/statements?taxMonth=${month}`)).body.subcontractors as {
          subcontractorId: string;
          statement: { id: string } | null;
          emailFailure: unknown;
        }[]
      ).find((entry) => entry.subcontractorId === subcontractor);
    const statement = await eventually(
      async () => (await group())?.statement ?? undefined,
      20_000,
      'statement',
    );
    stack.harness.sink.failFor(60_000, 451);
    const issued = await stack.harness.call(admin, 'POST', `/statements/${statement.id}/issue`, {
      method: 'email',
    });
    expect(issued.body).toMatchObject({ emailSent: false });
    await eventually(async () => (await group())?.emailFailure ?? undefined, 20_000, 'the dead letter');

    const page = await stack.newPage('admin@demo.test');
    await page.goto(`${stack.baseUrl}/cis/statements`);
    const row = page.locator('tr', { hasText: 'Sam Stonewall' });
    await visible(row.getByTestId('statement-email-failed'));
    expect(await row.getByTestId('statement-email-failed').textContent()).toBe('Email not delivered');
    await row.getByTestId('statement-email-failed').hover();
    await visible(page.locator('.ant-tooltip', { hasText: '451' }));
    await page.screenshot({ path: `${shots}/notifications-cis-statement-dead-letter.png` });

    // Resend: the kept copy, its PDF included, goes again. The relay still refuses its first three attempts, so the
    // row says it is on its way; the screen looks again while it is, and then says it was delivered.
    stack.harness.sink.recover();
    stack.harness.sink.clear();
    stack.harness.sink.failNext(3, 451);
    await row.getByTestId('statement-email-resend').click();
    await visible(page.getByText('Statement email resent to sam@stonewall.test'));
    await visible(row.getByTestId('statement-email-resending'));
    expect(await row.getByTestId('statement-email-resending').textContent()).toBe('Resending email');
    await page.screenshot({ path: `${shots}/notifications-cis-statement-resending.png` });
    await visible(row.getByTestId('statement-email-delivered'));
    expect(await row.getByTestId('statement-email-delivered').textContent()).toBe('Email delivered');
    expect(await row.getByTestId('statement-email-resend').count()).toBe(0);
    const arrived = stack.harness.sink
      .messages()
      .filter((message) => message.to.includes('sam@stonewall.test'));
    expect(arrived).toHaveLength(1);
    expect(arrived[0]?.subject).toContain('deduction statement');
    expect(arrived[0]?.attachments).toEqual([expect.objectContaining({ contentType: 'application/pdf' })]);
    await animationsDone(row);
    await page.screenshot({ path: `${shots}/notifications-cis-statement-resent.png` });
    await page.context().close();
  });
});

describe('CIS deadlines in the bell', () => {
  it("the day before a return is due, the bell of who can submit it lists the deadline and a click opens that month's return", async () => {
    // 18 January 2027 (the business clock): the return of the month 6 December 2026 to 5 January 2027 is due
    // tomorrow, and cis's daily deadline scan runs.
    stack.harness.clock.set(new Date('2027-01-18T09:00:00Z'));
    try {
      await stack.harness.definition.deadlineScan().runOnce();
      const text = 'CIS300 return filing for the month ending 5 January 2027 due tomorrow (19 January 2027)';
      const page = await stack.newPage('cis.admin@demo.test');
      await page.goto(`${stack.baseUrl}/cis`);
      // The bell is live: the notification shows when the consumer has made it (its stream tells the page).
      await page.getByTestId('notification-bell').click();
      const item = page.getByTestId('notification-item').filter({ hasText: text });
      await visible(item);
      await animationsDone(page.locator('.ant-popover').filter({ has: item }));
      await animationsDone(item);
      await page.screenshot({ path: `${shots}/notifications-cis-deadline.png` });
      await item.getByText(text).click();
      await page.waitForURL(`${stack.baseUrl}/cis/returns?month=2026-12`);
      await visible(
        page
          .getByTestId('current-return')
          .getByText('Return for the month ending 5 January 2027', { exact: true }),
      );
      await visible(
        page
          .getByTestId('period-standing')
          .getByText(
            'The return for the month ending 5 January 2027 is due by 19 January 2027: no payments are recorded, so it is a nil return.',
          ),
      );
      await animationsDone(page.getByTestId('current-return'));
      await page.screenshot({ path: `${shots}/notifications-cis-deadline-opened.png` });
      await page.context().close();
    } finally {
      stack.harness.clock.set(new Date());
    }
  });
});
