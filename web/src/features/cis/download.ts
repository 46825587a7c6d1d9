import { inFlight } from '../../app/api';

/** The filename of a Content-Disposition header, if any. */
function filenameOf(disposition: string | null, fallback: string): string {
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition ?? '');
  return match?.[1] ? decodeURIComponent(match[1]) : fallback;
}

/**
 * Downloads a file the bff serves (CSV exports, templates, XML): fetched with the session cookie, then saved
 * under the server's filename. Throws with the server's message on failure.
 */
export async function downloadFile(url: string, fallbackName: string): Promise<void> {
  const response = await inFlight.track(fetch(url, { credentials: 'same-origin' }));
  if (!response.ok) {
    let detail = `Download failed (${response.status})`;
    try {
      const body = (await response.json()) as { detail?: string };
      if (body.detail) detail = body.detail;
    } catch {
      // not a problem+json body
    }
    throw new Error(detail);
  }
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = filenameOf(response.headers.get('content-disposition'), fallbackName);
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  window.setTimeout(() => {
    URL.revokeObjectURL(href);
  }, 10_000);
}

/** Opens a document the bff serves (a statement PDF) in a new tab. */
export function openInNewTab(url: string): void {
  window.open(url, '_blank', 'noopener');
}
