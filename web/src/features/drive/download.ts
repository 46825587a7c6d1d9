// Downloads (drive.md §2, §4, §8): through /api/drive/download, with 'Preparing download...' then 'Download started'
// about 2.5 s later; a failure says 'Download failed. Opening in new tab...' and opens the link in a new tab.
import { useCallback } from 'react';
import { inFlight } from '../../app/api';
import { useToast } from '../../ui/feedback';

export const DOWNLOAD_STARTED_MS = 2_500;

export const downloadUrl = (fileId: string) => `/api/drive/download?fileId=${encodeURIComponent(fileId)}`;
export const inlineUrl = (fileId: string) =>
  `/api/drive/preview?fileId=${encodeURIComponent(fileId)}&disposition=inline`;

/** Saves bytes under a name (an object URL clicked, then revoked). */
function save(blob: Blob, name: string) {
  const href = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = name;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  window.setTimeout(() => {
    URL.revokeObjectURL(href);
  }, 10_000);
}

/** The download action with its toasts. */
export function useDownload() {
  const toast = useToast();
  return useCallback(
    async (file: { id: string; name: string }) => {
      const url = downloadUrl(file.id);
      toast.info('Preparing download...');
      const started = Date.now();
      try {
        const response = await inFlight.track(fetch(url, { credentials: 'same-origin' }));
        if (!response.ok) throw new Error(`Download failed (${response.status})`);
        const blob = await response.blob();
        const wait = DOWNLOAD_STARTED_MS - (Date.now() - started);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        save(blob, file.name);
        toast.success('Download started');
      } catch {
        toast.error('Download failed. Opening in new tab...');
        window.open(url, '_blank', 'noopener');
      }
    },
    [toast],
  );
}
