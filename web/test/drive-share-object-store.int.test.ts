// The drive's browser stack against the strict CSP and MinIO's CORS (ADR 0049): a page of the product's origin PUTs
// an upload part straight to a presigned URL of the object store and reads its ETag, shows an image from a presigned
// URL, and a signed-out visitor of /share/{id} gets the public share page, never the staff app.
import { eventually } from '@workspace/kit/testing';
import type { Page } from 'playwright-core';
import { shots, visible } from './browser.js';
import { driveStackPerFile, type DriveBrowserStack } from './drive-stack.js';

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let stack: DriveBrowserStack;
driveStackPerFile((started) => {
  stack = started;
});

/** Violations of the page's CSP, as the browser reports them. */
async function cspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
  // A script for the page (the tests' TypeScript has no DOM types).
  await page.addInitScript(`
    document.addEventListener('securitypolicyviolation', (event) => {
      window.reportViolation(event.violatedDirective + ' ' + event.blockedURI);
    });
  `);
  return violations;
}

describe('the object store from a page of the product (CSP and CORS)', () => {
  it('PUTs an upload part to a presigned URL and reads its ETag; shows an image from a presigned URL', async () => {
    const objects = stack.driveDefinition.deps().objects;
    const key = 'tenants/demo/files/browser-part/v/1';
    const uploadId = await objects.startMultipart(key, 'image/png');
    const partUrl = await objects.presignPart(key, uploadId, 1);
    expect(new URL(partUrl).origin).toBe(new URL(stack.driveConfig.OBJECT_STORE_URL).origin);

    const page = await stack.newSignedOutPage();
    const violations = await cspViolations(page);
    await page.goto(`${stack.baseUrl}/share/not-a-share`);
    await visible(page.getByText('Share not found'));
    const put = await page.evaluate(
      async ({ url, bytes }) => {
        const response = await fetch(url, { method: 'PUT', body: new Uint8Array(bytes) });
        return { status: response.status, etag: response.headers.get('etag') };
      },
      { url: partUrl, bytes: [...PNG_1PX] },
    );
    expect(put.status).toBe(200);
    expect(put.etag).toMatch(/^"[0-9a-f]{32}"$/);
    // The service lists the parts itself: the browser's ETag is the stored part's.
    const parts = await objects.parts(key, uploadId);
    expect(parts.map((part) => `"${part.etag.replace(/"/g, '')}"`)).toEqual([put.etag]);
    await objects.completeMultipart(key, uploadId, parts);

    const imageUrl = await objects.presignGet(key, 'dot.png', 'inline');
    const width = await page.evaluate(`(async () => {
      const image = new Image();
      image.src = ${JSON.stringify(imageUrl)};
      await image.decode();
      return image.naturalWidth;
    })()`);
    expect(width).toBe(1);
    expect(violations).toEqual([]);
    await page.screenshot({ path: `${shots}/drive-share-page-not-found.png` });
    await page.context().close();
  });

  it('blocks any other origin: the CSP refuses a connection the object store did not sign for', async () => {
    const page = await stack.newSignedOutPage();
    const violations = await cspViolations(page);
    await page.goto(`${stack.baseUrl}/share/not-a-share`);
    await visible(page.getByText('Share not found'));
    const blocked = await page.evaluate(async () => {
      try {
        await fetch('http://127.0.0.2:9/elsewhere', { method: 'PUT', body: 'x' });
        return 'sent';
      } catch {
        return 'blocked';
      }
    });
    expect(blocked).toBe('blocked');
    const [first] = await eventually(() => Promise.resolve(violations.length > 0 ? violations : undefined));
    expect(first).toMatch(/^connect-src http:\/\/127\.0\.0\.2:9/);
    await page.context().close();
  });
});

describe('the public share page', () => {
  it('serves /share/{id} to a signed-out browser as its own page, without the staff app or a sign-in redirect', async () => {
    const page = await stack.newSignedOutPage();
    await page.goto(`${stack.baseUrl}/share/unknown-share`);
    await visible(page.getByText('Share not found'));
    expect(new URL(page.url()).pathname).toBe('/share/unknown-share');
    const scripts = [...(await page.content()).matchAll(/<script[^>]* src="([^"]+)"/g)].map(
      ([, src]) => src ?? '',
    );
    expect(scripts.some((src) => /\/assets\/share-/.test(src))).toBe(true);
    expect(scripts.some((src) => /\/assets\/app-/.test(src))).toBe(false);
    await page.context().close();
  });
});
