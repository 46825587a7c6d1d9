// JSON previews are pretty-printed (drive.md §2); what a file previews as is the domain's previewKind.

/** JSON pretty-printed (two spaces); text that is not JSON as it is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** drive.md §2, §8: what a preview that did not load says. */
export const PREVIEW_TEXTS = {
  unable: 'Unable to load file',
  metadataFailed: 'Failed to get file metadata',
} as const;

/** Why a preview did not load, under 'Unable to load file'. */
export interface PreviewFailure {
  /** 'Failed to get file metadata' when the preview lookup (the file's kind, text or URL) failed. */
  reason?: string;
  /** The drive's own message for it, when it gave one. */
  detail?: string;
}

/**
 * The failure of GET /api/drive/preview (the file's metadata): the lookup answered an error (its problem's detail
 * kept) or did not answer at all (`undefined`).
 */
export function previewFailure(answer?: { status: number; body?: unknown }): PreviewFailure {
  const body = answer?.body;
  const detail =
    typeof body === 'object' && body !== null && 'detail' in body && typeof body.detail === 'string'
      ? body.detail
      : undefined;
  return { reason: PREVIEW_TEXTS.metadataFailed, ...(detail ? { detail } : {}) };
}
