// Journey: a contractor asks a colleague to sign a PDF (Request Signature on the signatures page's file), the
// colleague finds it among the pending requests, signs by drawing on the canvas, and the document moves to the
// signed list; the empty states of both lists first.
import type { Locator, Page } from 'playwright-core';
import { animationsDone, shots, visible } from './browser.js';
import { choose, dialog } from './cis-stack.js';
import { ADMIN, MANAGER, pdfBytes, seedPlace, uploadFile } from './drive-share-seed.js';
import { driveStackPerFile, type DriveBrowserStack } from './drive-stack.js';

let stack: DriveBrowserStack;
let fileId = '';
driveStackPerFile(async (started) => {
  stack = started;
  const place = await seedPlace(stack);
  // The manager signs in the library the admin made: make them a member of the drive.
  const added = await stack.driveCall(place.token, 'POST', `/drives/${place.driveId}/members`, {
    userIds: [MANAGER.uid],
    role: 'contributor',
  });
  if (added.status >= 300) throw new Error(`members: ${String(added.status)} ${added.text}`);
  ({ fileId } = await uploadFile(stack, place, 'Subcontract.pdf', await pdfBytes('Subcontract agreement')));
});

describe('requesting and completing a signature', () => {
  it('shows the empty lists, then the request sent by a colleague, signed by drawing, listed as signed', async () => {
    const signer = await stack.newPage(MANAGER.email);
    await signer.goto(`${stack.baseUrl}/drive/signatures`);
    await visible(signer.getByText('No pending signatures'));
    await visible(signer.getByText('No signed documents'));
    await signer.screenshot({ path: `${shots}/drive-signatures-empty.png` });

    // The admin asks for the signature (Request Signature: 'Signature request sent').
    const requester = await stack.newPage(ADMIN.email);
    await requester.goto(`${stack.baseUrl}/drive/signatures?request=${fileId}&name=Subcontract.pdf`);
    const request = dialog(requester, 'Request Signature');
    await visible(request);
    await choose(requester, request.getByLabel('Signer'), MANAGER.name);
    await request.getByRole('button', { name: 'Send request' }).click();
    await visible(requester.getByText('Signature request sent'));
    await requester.screenshot({ path: `${shots}/drive-signature-requested.png` });
    await requester.context().close();

    await signer.reload();
    const pending = signer.locator('.signatures-pending');
    await visible(pending.getByText('Subcontract.pdf'));
    await visible(pending.getByText(`Requested by ${ADMIN.name}`, { exact: false }));
    await pending.getByRole('button', { name: 'Sign' }).click();
    const sign = dialog(signer, 'Sign PDF');
    const pad = sign.getByLabel('Signature');
    await visible(pad);
    await drawOnPad(signer, sign, pad);
    await signer.screenshot({ path: `${shots}/drive-signature-drawn.png` });
    await sign.getByRole('button', { name: 'Sign' }).click();
    await visible(signer.getByText('PDF signed successfully'));

    await visible(pending.getByText('No pending signatures'));
    const signed = signer.locator('.signatures-signed');
    await visible(signed.getByText('Subcontract.pdf'));
    await visible(signed.getByText('signed', { exact: true }));
    await signer.screenshot({ path: `${shots}/drive-signature-signed.png` });
    await signer.context().close();
  });
});

/**
 * Draws a zigzag stroke across the pad with the real mouse, once the dialog has finished opening: fully opaque, not
 * scaled, and in the same place over two frames (a stroke measured mid-zoom lands off the pad). Sign is enabled by a
 * stroke that reached the pad; on a loaded machine the opening can still be under way when measured, so the stroke is
 * drawn again (as a person would) up to three times before the test fails on the disabled Sign button.
 */
async function drawOnPad(page: Page, modal: Locator, pad: Locator): Promise<void> {
  const signButton = modal.getByRole('button', { name: 'Sign' });
  for (let attempt = 1; attempt <= 3; attempt++) {
    await animationsDone(modal);
    await modal.evaluate(
      (element) =>
        new Promise<void>((resolve) => {
          // The test's TypeScript has no DOM library: the page's window, as much of it as is used here.
          const page = globalThis as unknown as {
            getComputedStyle(target: unknown): { opacity: string; transform: string };
            requestAnimationFrame(callback: () => void): void;
          };
          const settled = () => {
            const style = page.getComputedStyle(element);
            return (
              style.opacity === '1' &&
              (style.transform === 'none' || style.transform === 'matrix(1, 0, 0, 1, 0, 0)')
            );
          };
          const check = (): void => {
            if (settled()) resolve();
            else page.requestAnimationFrame(check);
          };
          check();
        }),
    );
    let box = await pad.boundingBox();
    for (let frame = 0; frame < 60; frame++) {
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(resolve))');
      const next = await pad.boundingBox();
      if (box && next && next.x === box.x && next.y === box.y && next.width === box.width) break;
      box = next;
    }
    if (!box) throw new Error('no signature pad');
    await page.mouse.move(box.x + 30, box.y + box.height * 0.7);
    await page.mouse.down();
    for (let step = 1; step <= 12; step++) {
      await page.mouse.move(box.x + 30 + step * 25, box.y + box.height * (step % 2 === 0 ? 0.3 : 0.7), {
        steps: 3,
      });
    }
    await page.mouse.up();
    if (await signButton.isEnabled()) return;
    await page.waitForTimeout(500);
    if (await signButton.isEnabled()) return;
  }
}
