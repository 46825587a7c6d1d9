// Downloads (drive.md §2, §4, §8): /api/drive/download answers the file's presigned URL (Accept: application/json;
// FILE_DOWNLOADED audited), which the browser then fetches itself, saved under the file's name. 'Preparing
// download...' first, 'Download started' about 2.5 s later; a failure says 'Download failed. Opening in new tab...'
// and opens the download link in a new tab (the drive's redirect to the presigned URL); when no tab can be opened
// (a popup blocker) it says 'Failed to download file'.
import { useCallback } from 'react';
import { inFlight } from '../../app/api';
import { useToast } from '../../ui/feedback';
import type { DownloadLink } from './api/types';

export const DOWNLOAD_STARTED_MS = 2_500;

export const DOWNLOAD_TEXTS = {
  preparing: 'Preparing download...',
  started: 'Download started',
  openingTab: 'Download failed. Opening in new tab...',
  failed: 'Failed to download file',
} as const;

export const downloadUrl = (fileId: string) => `/api/drive/download?fileId=${encodeURIComponent(fileId)}`;

/** Asks the drive for a file's presigned download URL. */
export async function downloadLink(fileId: string): Promise<DownloadLink> {
  const response = await inFlight.track(
    fetch(downloadUrl(fileId), { credentials: 'same-origin', headers: { accept: 'application/json' } }),
  );
  if (!response.ok) throw new Error(`Download failed (${response.status})`);
  return (await response.json()) as DownloadLink;
}

/** The download action with its toasts. */
export function useDownload() {
  const toast = useToast();
  return useCallback(
    async (file: { id: string; name: string }) => {
      toast.info(DOWNLOAD_TEXTS.preparing);
      try {
        const link = await downloadLink(file.id);
        const anchor = document.createElement('a');
        anchor.href = link.url;
        anchor.download = link.name;
        anchor.rel = 'noopener';
        document.body.appendChild(anchor);
        anchor.click();
        anchor.remove();
        window.setTimeout(() => {
          toast.success(DOWNLOAD_TEXTS.started);
        }, DOWNLOAD_STARTED_MS);
      } catch {
        toast.error(DOWNLOAD_TEXTS.openingTab);
        // Not 'noopener' in the features (window.open then answers null whether or not a tab opened): the new tab
        // is cut from this page by hand.
        const tab = window.open(downloadUrl(file.id), '_blank');
        if (tab) tab.opener = null;
        else toast.error(DOWNLOAD_TEXTS.failed);
      }
    },
    [toast],
  );
}
