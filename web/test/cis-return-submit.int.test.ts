// Issue 13, the return that is due, declared and submitted, in Chromium against the real stack with a controlled
// clock (cis's business clock and the browser's): the module is switched on in October, an invoice is paid on
// 3 November (the month ending 5 November 2026), and on 10 November the accountant opens Returns on that return,
// compiles it, ticks HMRC's three declarations (Submit stays disabled until all three are ticked) and submits it. The
// submitted return then shows who submitted it and when, its IRmark, the declarations made, its document, and says
// plainly that there is no live connection to HMRC's gateway: the document is ready to file. Then an invoice paid
// into that month afterwards shows the return "changed since submission" with the difference, and Amend goes
// through the declarations again to the amended return.
import { CIS_DECLARATION_TEXTS } from '@workspace/rules';
import {
  ALL_CIS_SCOPES,
  CIS_ADMIN_ID,
  drainJobQueue,
  invoiceBody,
  settingsBody,
} from '@workspace/cis/testing';
import { ControlledClock } from '@workspace/kit/testing';
import { shots, visible } from './browser.js';
import { cisStackPerFile, dialog, submitAmendment, submitDialog, type CisBrowserStack } from './cis-stack.js';

const clock = new ControlledClock(new Date('2026-10-20T09:00:00Z'));
/** The month ending 5 November 2026 (6 October to 5 November). */
const DUE = '2026-10';

let stack: CisBrowserStack;
let admin: string;

async function call(method: string, path: string, body?: unknown) {
  const result = await stack.harness.call(admin, method, path, body);
  if (result.status >= 300) throw new Error(`${method} ${path}: ${result.status} ${result.text}`);
  return result.body;
}

/** A paid invoice of Sam Site's (approved, paid, its statement job run). */
async function paidInvoice(
  subcontractorId: string,
  invoiceNumber: string,
  grossP: number,
  paymentDate: string,
) {
  const invoice = (await call(
    'POST',
    '/invoices',
    invoiceBody(subcontractorId, { invoiceNumber, invoiceDate: '2026-11-01', grossP }),
  )) as { invoice: { id: string } };
  await call('POST', '/invoices/approve', { ids: [invoice.invoice.id] });
  await drainJobQueue(stack.harness);
  // Into a month whose return is submitted, the payment is confirmed past the warning (the corrections' 409).
  await call('POST', '/invoices/pay', {
    ids: [invoice.invoice.id],
    paymentDate,
    confirmSubmittedReturn: true,
  });
  await drainJobQueue(stack.harness);
}

/** Issues the month's statements not yet issued (a return is submitted once they all are). */
async function issueStatements(taxMonth: string) {
  const month = (await call('GET', `/statements?taxMonth=${taxMonth}`)) as {
    subcontractors: { statement: { id: string; status: string } | null }[];
  };
  for (const { statement } of month.subcontractors)
    if (statement && statement.status !== 'issued')
      await call('POST', `/statements/${statement.id}/issue`, { method: 'email' });
}

let samId = '';

cisStackPerFile(
  async (started) => {
    stack = started;
    admin = await stack.harness.token(ALL_CIS_SCOPES, 'demo', CIS_ADMIN_ID);
    // Switched on in October.
    await call('PUT', '/settings', settingsBody());
    // 3 November: Sam Site is paid (the month ending 5 November) and his statement issued.
    clock.set(new Date('2026-11-03T12:00:00Z'));
    const sub = (await call('POST', '/subcontractors', {
      type: 'individual',
      name: 'Sam Site',
      utr: '1234567890',
      nino: 'AB123456C',
      email: 'sam@site.test',
      registeredAddress: { line1: '1 High Street', city: 'Leeds', postcode: 'LS1 1AA', country: 'GB' },
      gdprConsent: true,
    })) as { subcontractor: { id: string } };
    samId = sub.subcontractor.id;
    await paidInvoice(samId, 'SS-1', 100000, '2026-11-03');
    await issueStatements(DUE);
    // The 10th: the return due is the month just ended.
    clock.set(new Date('2026-11-10T10:00:00Z'));
  },
  { clock },
);

it('on the 10th the accountant compiles the return due, ticks the three declarations and submits it; the page says who, when, its IRmark and what "submitted" means here', async () => {
  const page = await stack.newPage('admin@demo.test');
  try {
    await page.goto(`${stack.baseUrl}/cis/returns`);
    const current = page.getByTestId('current-return');
    // The page opens on the return due: the month ending 5 November 2026.
    await visible(current.getByText('Return for the month ending 5 November 2026', { exact: true }));

    await current.getByRole('button', { name: 'Compile Return' }).click();
    const compiled = dialog(page, 'Return Compiled Successfully');
    await visible(compiled);
    await compiled.getByRole('button', { name: 'OK' }).click();
    await visible(current.getByText('Return validated successfully'));

    await current.getByRole('button', { name: 'Submit Return' }).click();
    const declare = submitDialog(page);
    await visible(
      declare.getByText('Submit the return for the month ending 5 November 2026', { exact: true }),
    );
    // HMRC's three declarations, each a box to tick; no "Are you sure?".
    const boxes = declare.getByRole('checkbox');
    expect(await boxes.count()).toBe(3);
    for (const key of ['employmentStatus', 'verification', 'informationCorrect'] as const)
      await visible(declare.getByText(CIS_DECLARATION_TEXTS[key], { exact: true }));
    await visible(declare.getByText(/no live connection to HMRC’s gateway/));
    const send = declare.getByRole('button', { name: 'Submit return' });
    expect(await send.isDisabled()).toBe(true);
    await declare.getByText(CIS_DECLARATION_TEXTS.employmentStatus, { exact: true }).click();
    await declare.getByText(CIS_DECLARATION_TEXTS.verification, { exact: true }).click();
    // Two of three ticked: still not submittable.
    expect(await send.isDisabled()).toBe(true);
    await declare.getByText(CIS_DECLARATION_TEXTS.informationCorrect, { exact: true }).click();
    expect(await send.isEnabled()).toBe(true);
    await page.screenshot({ path: `${shots}/cis-return-submit-declarations.png` });
    await send.click();
    const submitted = dialog(page, 'Return Submitted');
    await visible(submitted.getByText('Return submitted successfully'));
    await submitted.getByRole('button', { name: 'OK' }).click();

    // The submitted return: who, when, IRmark, declarations, document, and what "submitted" means here.
    const panel = current.getByTestId('submitted-return');
    await visible(panel);
    await visible(current.locator('.ant-tag', { hasText: /^Submitted$/ }));
    expect(await current.getByText('Locked', { exact: true }).count()).toBe(0);
    const stored = (await call('GET', `/returns/${DUE}`)) as {
      return: { submissionRef: string; submittedAt: string; submittedBy: string };
    };
    // Submitted on the 10th by the services' clock (which runs on from 10:00).
    expect(stored.return.submittedAt).toMatch(/^2026-11-10T10:0\d:/);
    const at = `10/11/2026, ${stored.return.submittedAt.slice(11, 16)}`;
    await visible(
      panel.getByText(
        `Return for the month ending 5 November 2026 submitted on ${at}: ready to file with HMRC`,
        {
          exact: true,
        },
      ),
    );
    const by = panel.locator('tr', { hasText: 'Submitted by' });
    await visible(by.getByText(/\(you\)$/));
    await visible(panel.locator('tr', { hasText: 'Submitted on' }).getByText(at, { exact: true }));
    expect(await panel.getByTestId('return-irmark').first().textContent()).toContain(
      stored.return.submissionRef,
    );
    await visible(panel.getByText(/no live connection to HMRC’s gateway: nothing is sent to HMRC from here/));
    await visible(panel.getByText(/keeps its CIS300 document ready to file/));
    expect(await panel.getByTestId('return-declarations').locator('li').allTextContents()).toEqual([
      CIS_DECLARATION_TEXTS.employmentStatus,
      CIS_DECLARATION_TEXTS.verification,
      CIS_DECLARATION_TEXTS.informationCorrect,
    ]);
    const download = panel.getByRole('button', { name: 'Download CIS300 XML' });
    expect(await download.isEnabled()).toBe(true);
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toMatch(/\.xml$/);
    await page.screenshot({ path: `${shots}/cis-return-submitted.png`, fullPage: true });
  } finally {
    await page.context().close();
  }
});

it('a payment into the submitted month shows the return changed since submission, with the difference; Amend is declared and submitted again', async () => {
  // Sam Site is paid £500 more, dated 4 November: into the month whose return was submitted.
  await paidInvoice(samId, 'SS-2', 50000, '2026-11-04');
  await issueStatements(DUE);
  const page = await stack.newPage('admin@demo.test');
  try {
    await page.goto(`${stack.baseUrl}/cis/returns?month=${DUE}`);
    const current = page.getByTestId('current-return');
    const changes = current.getByTestId('return-changes');
    await visible(
      changes.getByText('Changed since submission: the month ending 5 November 2026', { exact: true }),
    );
    const sam = changes.locator('tr', { hasText: 'Sam Site' });
    await visible(sam.getByText('£1,000.00 → £1,500.00 (+£500.00)', { exact: true }));
    await visible(sam.getByText('£160.00 → £220.00 (+£60.00)', { exact: true }));
    await visible(sam.getByText('1 → 2 (+1)', { exact: true }));
    await page.screenshot({ path: `${shots}/cis-return-changed.png`, fullPage: true });

    await changes.getByRole('button', { name: 'Amend return' }).click();
    await dialog(page, 'Amendment started').getByRole('button', { name: 'OK' }).click();
    // The amendment holds the figures as they are now; the change stays shown until it is submitted.
    await visible(
      changes.getByText('An amendment is in progress: check it and submit it with the declarations.'),
    );
    await submitAmendment(page, current, 'month ending 5 November 2026');

    const panel = current.getByTestId('submitted-return');
    await visible(
      panel.getByText(/^Amended return for the month ending 5 November 2026 submitted on 10\/11\/2026/),
    );
    await visible(current.getByText('£1,500.00', { exact: true }).first());
    expect(await current.getByTestId('return-changes').count()).toBe(0);
    const filed = (await call('GET', `/returns/${DUE}`)) as {
      return: { amendmentOf: string; totals: { grossP: number } };
    };
    expect(filed.return).toMatchObject({ amendmentOf: DUE, totals: { grossP: 150000 } });
    await page.screenshot({ path: `${shots}/cis-return-amended.png`, fullPage: true });
  } finally {
    await page.context().close();
  }
});
