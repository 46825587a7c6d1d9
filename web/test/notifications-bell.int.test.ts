// Journey: the bell in the staff app's header (issue 15, ADR 0052). A colleague asks Mo to sign a PDF, then shares a
// file with him: the drive publishes the events, the notification service makes Mo's notifications, and his bell's
// unread count goes up while he looks at the page (its stream, no reload). The panel lists each with its subject and
// time in UK format; a click follows the link and marks it read; Mark all as read clears the count. The bff forwards
// only the user's own notifications: the e-mail API is never reachable from a browser.
import type { Page } from 'playwright-core';
import { animationsDone, shots, unreadShown, visible } from './browser.js';
import { until } from './cis-stack.js';
import { ADMIN, MANAGER, pdfBytes, seedPlace, uploadFile, type SeededPlace } from './drive-share-seed.js';
import { driveStackPerFile, type DriveBrowserStack } from './drive-stack.js';

let stack: DriveBrowserStack;
let place: SeededPlace;
const files: Record<string, string> = {};

const ok = <T extends { status: number; text: string }>(what: string, answer: T): T => {
  if (answer.status >= 300) throw new Error(`${what}: ${String(answer.status)} ${answer.text}`);
  return answer;
};

driveStackPerFile(
  async (started) => {
    stack = started;
    place = await seedPlace(stack);
    ok(
      'add Mo to the drive',
      await stack.driveCall(place.token, 'POST', `/drives/${place.driveId}/members`, {
        userIds: [MANAGER.uid],
      }),
    );
    const pdf = await pdfBytes('Site documents');
    for (const name of ['Subcontract.pdf', 'Site plan.pdf']) {
      files[name] = (await uploadFile(stack, place, name, pdf)).fileId;
    }
  },
  { inAppNotifications: true },
);

const ukDateTime = (date: Date) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(date);

describe('the notification bell', () => {
  it('a colleague asks for a signature: the count goes up live, the list shows it, a click opens the task and marks it read', async () => {
    const page = await stack.newPage(MANAGER.email);
    await page.goto(`${stack.baseUrl}/drive/all`);
    const bell = page.getByTestId('notification-bell');
    await visible(bell);
    // (Kafka's topics are shared by every test run on this machine: other runs' events may count too, so the
    // checks compare with what the bell showed before.)
    const before = await until(
      () => unreadShown(page),
      (count) => count >= 0,
      'the bell',
    );
    await page.screenshot({ path: `${shots}/notifications-bell-before.png` });

    // Ada, signed in elsewhere, asks Mo to sign: his page is not reloaded, its bell counts it.
    const requestedAt = stack.harness.clock.now();
    const request = ok(
      'signature request',
      await stack.driveCall(place.token, 'POST', '/signatures', {
        fileId: files['Subcontract.pdf'],
        assignedToUid: MANAGER.uid,
      }),
    );
    const taskId = (request.body.task as { id: string }).id;
    const counted = await until(
      () => unreadShown(page),
      (count) => count > before,
      'the bell to count the signature request',
      30_000,
    );
    expect(await bell.getAttribute('aria-label')).toBe(`Notifications, ${String(counted)} unread`);
    await animationsDone(page.getByTestId('notification-count'));
    await page.screenshot({ path: `${shots}/notifications-bell-count.png` });

    await bell.click();
    const list = page.getByTestId('notification-list');
    await visible(list);
    const item = list
      .getByTestId('notification-item')
      .filter({ hasText: 'You are asked to sign “Subcontract.pdf”' });
    await visible(item);
    expect(await item.getAttribute('data-read')).toBe('false');
    // The time it came, in UK format (the services' clock of this run, which runs on: the minute of the request or,
    // when a minute turned meanwhile, the minute now).
    expect([ukDateTime(requestedAt), ukDateTime(stack.harness.clock.now())]).toContain(
      await item.locator('time').textContent(),
    );
    await animationsDone(page.locator('.ant-popover').filter({ has: item }));
    await page.screenshot({ path: `${shots}/notifications-bell-list.png` });

    await item.getByText('You are asked to sign “Subcontract.pdf”').click();
    await page.waitForURL(
      (url) => url.pathname === '/drive/signatures' && url.searchParams.get('task') === taskId,
    );
    await until(
      () => unreadShown(page),
      (count) => count < counted,
      'the notification to be read',
    );
    await visible(page.getByText('Subcontract.pdf').first());
    await page.screenshot({ path: `${shots}/notifications-bell-followed.png` });

    // Read everywhere: the bell lists it as read.
    await bell.click();
    await visible(list);
    expect(
      await list
        .getByTestId('notification-item')
        .filter({ hasText: 'You are asked to sign “Subcontract.pdf”' })
        .getAttribute('data-read'),
    ).toBe('true');
    await page.context().close();
  });

  it('a colleague shares a file: the count goes up live; Mark all as read clears it; View all lists them on their own page', async () => {
    const page = await stack.newPage(MANAGER.email);
    await page.goto(`${stack.baseUrl}/drive/all`);
    const bell = page.getByTestId('notification-bell');
    await visible(bell);
    const before = await until(
      () => unreadShown(page),
      (count) => count >= 0,
      'the bell',
    );
    ok(
      'share with Mo',
      await stack.driveCall(place.token, 'POST', `/files/${files['Site plan.pdf'] ?? ''}/share-with`, {
        userIds: [MANAGER.uid],
      }),
    );
    await until(
      () => unreadShown(page),
      (count) => count > before,
      'the bell to count the share',
      30_000,
    );
    await bell.click();
    const list = page.getByTestId('notification-list');
    const shared = list
      .getByTestId('notification-item')
      .filter({ hasText: '“Site plan.pdf” was shared with you' });
    await visible(shared);
    expect(await shared.getAttribute('data-read')).toBe('false');
    await animationsDone(page.locator('.ant-popover').filter({ has: shared }));
    await page.screenshot({ path: `${shots}/notifications-bell-shared.png` });
    await list.getByRole('button', { name: 'Mark all as read' }).click();
    await until(
      () => unreadShown(page),
      (count) => count === 0,
      'everything read',
    );
    await until(
      () => shared.getAttribute('data-read'),
      (read) => read === 'true',
      'the share listed as read',
    );
    expect(await list.getByRole('button', { name: 'Mark all as read' }).isDisabled()).toBe(true);
    await list.getByText('View all').click();
    await page.waitForURL(`${stack.baseUrl}/notifications`);
    const all = page.getByTestId('notifications-page');
    await visible(all.getByText('“Site plan.pdf” was shared with you'));
    await visible(all.getByText('You are asked to sign “Subcontract.pdf”'));
    await page.screenshot({ path: `${shots}/notifications-page.png` });

    // Ada's bell is her own: none of Mo's notifications.
    const ada = await stack.newPage(ADMIN.email);
    await ada.goto(`${stack.baseUrl}/notifications`);
    await visible(ada.getByTestId('notifications-page'));
    await ada.getByTestId('notifications-page').locator('.ant-spin-spinning').waitFor({ state: 'detached' });
    expect(await ada.getByText('“Site plan.pdf” was shared with you').count()).toBe(0);
    expect(await ada.getByText('You are asked to sign “Subcontract.pdf”').count()).toBe(0);
    await ada.screenshot({ path: `${shots}/notifications-page-colleague.png` });
    await ada.context().close();

    // The bff forwards the user's notifications only: the e-mail API is not reachable from the browser.
    for (const path of ['/api/notification/emails', '/api/notification/%2e%2e/emails']) {
      const answer = await page.request.post(`${stack.baseUrl}${path}`, {
        data: { tenantId: 'demo', to: 'x@example.com', subject: 'x', text: 'x' },
        headers: { 'x-csrf-token': await csrfOf(page) },
      });
      expect(answer.status()).toBe(404);
    }
    await page.context().close();
  });
});

/** The session's CSRF token, as the app sends it with every change. */
async function csrfOf(page: Page): Promise<string> {
  const answer = await page.request.get(`${stack.baseUrl}/api/auth/session`);
  return ((await answer.json()) as { csrfToken?: string }).csrfToken ?? '';
}
