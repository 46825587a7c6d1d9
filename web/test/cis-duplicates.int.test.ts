// Browser journeys of one subcontractor per person (issue 13, ADR 0039): the subcontractor form refuses a UTR another
// record has, naming it with a link to it; Invite to Portal offers the existing subcontractor when the email matches
// and invites it instead of making a second record; a subcontractor made by an invitation shows 'Details incomplete'
// in the list and on its page; duplicates stored before this are merged from the list. Debian's Chromium against the
// real stack (web/test/cis-stack.ts); one stack and one tenant, seeded through the API.
import type { Page } from 'playwright-core';
import {
  adminQuery,
  ALL_CIS_SCOPES,
  CIS_ADMIN_ID,
  fillIdentityHashesNow,
  freshIdentifiers,
  invoiceBody,
  settingsBody,
} from '@workspace/cis/testing';
import { shots, visible } from './browser.js';
import { cisStackPerFile, dialog, until, type CisBrowserStack } from './cis-stack.js';

let stack: CisBrowserStack;
let baseUrl: string;
let admin: string;

async function call(method: string, path: string, body?: unknown) {
  const result = await stack.harness.call(admin, method, path, body);
  if (result.status >= 300) throw new Error(`${method} ${path}: ${result.status} ${result.text}`);
  return result.body;
}

const address = { line1: '1 High Street', city: 'Leeds', postcode: 'LS1 1AA', country: 'GB' };

async function subcontractor(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const body = (await call('POST', '/subcontractors', {
    type: 'individual',
    name,
    ...freshIdentifiers(),
    registeredAddress: address,
    gdprConsent: true,
    ...extra,
  })) as { subcontractor: { id: string } };
  return body.subcontractor.id;
}

const topBar = (page: Page) => page.getByTestId('cis-top-bar');

const dana = freshIdentifiers();
let danaId: string;

cisStackPerFile(async (started) => {
  stack = started;
  baseUrl = stack.baseUrl;
  admin = await stack.harness.token(ALL_CIS_SCOPES, 'demo', CIS_ADMIN_ID);
  await call('PUT', '/settings', settingsBody());
  danaId = await subcontractor('Dana Dup', { ...dana, email: 'dana@dup.test' });
});

describe('one subcontractor per person', () => {
  it('the accountant adding a subcontractor whose UTR is on file is refused, told whose it is, and follows the link to that record', async () => {
    const page = await stack.newPage('accountant@demo.test');
    await page.goto(`${baseUrl}/cis/subcontractors/new`);
    const form = page.getByTestId('subcontractor-form');
    await visible(form);
    await form.getByLabel('Name', { exact: true }).fill('Dana Again');
    // The same UTR, written with a space.
    await form.getByLabel('UTR', { exact: true }).fill(`${dana.utr.slice(0, 5)} ${dana.utr.slice(5)}`);
    await form.getByLabel('NINO').fill(freshIdentifiers().nino);
    await form.getByLabel('Registered address line 1').fill('2 Low Road');
    await form.getByLabel('Registered city').fill('York');
    await form.getByLabel('Registered postcode').fill('YO1 1AA');
    await form.getByLabel('GDPR consent').click();
    await page.getByRole('button', { name: 'Create Subcontractor' }).click();
    const refusal = page.getByTestId('duplicate-subcontractor');
    await visible(
      refusal.getByText(
        'Dana Dup already has this UTR: each person has one subcontractor record. Open their record instead of adding another.',
      ),
    );
    await page.screenshot({ path: `${shots}/cis-duplicate-utr-refused.png`, fullPage: true });
    // Nothing was created; the link opens the record that has the UTR.
    const again = (await call('GET', '/subcontractors?search=Dana%20Again')) as { items: unknown[] };
    expect(again.items).toHaveLength(0);
    await refusal.getByRole('link', { name: 'Open Dana Dup' }).click();
    await page.waitForURL(new RegExp(`/cis/subcontractors/${danaId}$`));
    await visible(page.getByText('Dana Dup').first());
    await page.context().close();
  });

  it('Invite to Portal offers the existing subcontractor when the email matches, and invites it instead of creating a second record', async () => {
    const page = await stack.newPage('accountant@demo.test');
    await page.goto(`${baseUrl}/cis/subcontractors`);
    await topBar(page).getByRole('button', { name: 'Invite to Portal' }).click();
    const invite = dialog(page, 'Invite Subcontractor to Portal');
    await invite.getByLabel('Name').fill('Dana D');
    await invite.getByLabel('Email').fill('Dana@Dup.test');
    await invite.getByRole('button', { name: 'Create & Send Invite' }).click();
    const offer = invite.getByTestId('duplicate-subcontractor');
    await visible(
      offer.getByText(
        'Dana Dup is already a subcontractor with this email address. Invite them instead of creating a second record.',
      ),
    );
    await visible(offer.getByRole('link', { name: 'Open Dana Dup' }));
    await page.screenshot({ path: `${shots}/cis-invite-offers-existing.png` });
    await offer.getByRole('button', { name: 'Invite Dana Dup' }).click();
    const sent = dialog(page, 'Invitation Created');
    await visible(sent.getByText('Dana Dup invited to the portal'));
    await visible(sent.getByText('An invitation email has been sent to dana@dup.test.', { exact: true }));
    await page.screenshot({ path: `${shots}/cis-invite-existing-sent.png` });
    const danas = (await call('GET', '/subcontractors?search=Dana')) as {
      items: { id: string; portalAccess: boolean }[];
    };
    expect(danas.items.map((item) => [item.id, item.portalAccess])).toEqual([[danaId, true]]);
    await page.context().close();
  });

  it('a subcontractor created by an invitation shows "Details incomplete" in the list and on its page until its address and consent are filled in', async () => {
    const page = await stack.newPage('accountant@demo.test');
    await page.goto(`${baseUrl}/cis/subcontractors`);
    await topBar(page).getByRole('button', { name: 'Invite to Portal' }).click();
    const invite = dialog(page, 'Invite Subcontractor to Portal');
    await invite.getByLabel('Name').fill('Iris Invited');
    await invite.getByLabel('Email').fill('iris@invited.test');
    await invite.getByRole('button', { name: 'Create & Send Invite' }).click();
    const created = dialog(page, 'Invitation Created');
    await visible(created.getByText('Subcontractor created successfully!'));
    await page.goto(`${baseUrl}/cis/subcontractors?search=Iris`);
    const row = page.locator('tr', { hasText: 'Iris Invited' });
    await visible(row.getByText('Details incomplete'));
    await page.screenshot({ path: `${shots}/cis-details-incomplete-list.png`, fullPage: true });
    await row.getByRole('link', { name: 'Iris Invited' }).click();
    await visible(
      page.getByText(
        'This subcontractor was added by a portal invitation. Add their address and GDPR consent before paying them.',
      ),
    );
    await page.screenshot({ path: `${shots}/cis-details-incomplete-detail.png`, fullPage: true });
    await page.context().close();
  });

  it('the accountant merges two records of one person stored before duplicates were refused: the list offers them, the invoices move, the other is archived', async () => {
    // As a version before this could store them: a second record with Mo's UTR, sealed, no hashes yet.
    const mo = await subcontractor('Mo Merge');
    const other = await subcontractor('Mo Merge (old)');
    await adminQuery(
      stack.harness,
      `UPDATE cis.subcontractors SET utr_enc = (SELECT utr_enc FROM cis.subcontractors WHERE id = $1),
         utr_masked = (SELECT utr_masked FROM cis.subcontractors WHERE id = $1), utr_hash = NULL WHERE id = $2`,
      [mo, other],
    );
    await adminQuery(stack.harness, `INSERT INTO cis.identity_hash_backlog (tenant_id) VALUES ('demo')`);
    await fillIdentityHashesNow(stack.harness);
    await call('POST', '/invoices', invoiceBody(other, { invoiceNumber: 'MO-OLD-1' }));

    const page = await stack.newPage('accountant@demo.test');
    await page.goto(`${baseUrl}/cis/subcontractors`);
    await visible(
      page.getByText('1 set of subcontractors shares a UTR, National Insurance number or company number'),
    );
    await page.getByRole('button', { name: 'Review duplicates' }).click();
    const review = dialog(page, 'Duplicate subcontractors');
    const set = review.getByTestId('duplicate-set');
    await visible(set.getByText('Same UTR'));
    // The dialog's opening animation finished before the picture.
    await page.locator('.ant-zoom-appear, .ant-zoom-enter').first().waitFor({ state: 'detached' });
    await page.screenshot({ path: `${shots}/cis-duplicates-review.png` });
    // Keep the first (older) record, offered by default.
    await set.getByRole('button', { name: 'Merge into Mo Merge' }).click();
    await visible(review.getByText('No duplicates left'));
    await page.screenshot({ path: `${shots}/cis-duplicates-merged.png` });
    const invoices = (await call('GET', `/invoices?subcontractorId=${mo}`)) as {
      items: { invoiceNumber: string }[];
    };
    expect(invoices.items.map((item) => item.invoiceNumber)).toEqual(['MO-OLD-1']);
    await review.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await page.goto(`${baseUrl}/cis/subcontractors/${other}`);
    await visible(page.getByText('Merged into Mo Merge (duplicate record)'));
    await page.getByRole('link', { name: 'Open the record kept' }).click();
    await page.waitForURL(new RegExp(`/cis/subcontractors/${mo}$`));
    await until(
      async () => (await call('GET', '/subcontractors/duplicates')) as { groups: unknown[] },
      (listed) => listed.groups.length === 0,
      'the duplicates after the merge',
    );
    await page.context().close();
  });
});
