// The public share page's calls (the bff forwards /api/public/shares/* to the drive without a session) and its pure
// rules: which share an address names, what a refusal means for the page, the viewer token a passcode gave.
import type { PublicShareView, ViewerTokenResponse } from '../features/drive/shares/types';

export type { PublicShareView };

/** The share and its tenant an address names: /share/{shareId}?tenantId={tenant}; undefined for anything else. */
export function shareAddress(
  path: string,
  search: string,
): { shareId: string; tenantId: string } | undefined {
  const match = /^\/share\/([A-Za-z0-9_-]{1,100})\/?$/.exec(path);
  const tenantId = new URLSearchParams(search).get('tenantId')?.trim();
  if (!match?.[1] || !tenantId || !/^[a-z0-9][a-z0-9_-]{0,62}$/.test(tenantId)) return undefined;
  return { shareId: match[1], tenantId };
}

/** What the page shows for a refusal of the drive (its `code`): a form, a sign-in, or a final state. */
export type Refusal =
  | { kind: 'passcode' }
  | { kind: 'sign-in' }
  | { kind: 'locked' }
  | { kind: 'expired' }
  | { kind: 'gone' }
  | { kind: 'missing' };

export function refusalOf(status: number, code: string | undefined): Refusal {
  if (code === 'passcode_required') return { kind: 'passcode' };
  if (code === 'sign_in_required') return { kind: 'sign-in' };
  if (code === 'passcode_locked' || status === 423) return { kind: 'locked' };
  if (code === 'share_expired') return { kind: 'expired' };
  if (code === 'share_revoked' || code === 'not_shared_with_you' || status === 410 || status === 403)
    return { kind: 'gone' };
  return { kind: 'missing' };
}

/** The viewer token a correct passcode gave, kept for this tab only (sessionStorage), per share. */
const tokenKey = (shareId: string) => `workspace.share.${shareId}`;

export function savedViewerToken(shareId: string): string | undefined {
  try {
    const saved = JSON.parse(sessionStorage.getItem(tokenKey(shareId)) ?? 'null') as {
      viewerToken: string;
      expiresAt: string;
    } | null;
    if (!saved || Date.parse(saved.expiresAt) <= Date.now()) return undefined;
    return saved.viewerToken;
  } catch {
    return undefined;
  }
}

export function saveViewerToken(shareId: string, token: ViewerTokenResponse): void {
  sessionStorage.setItem(tokenKey(shareId), JSON.stringify(token));
}

export function forgetViewerToken(shareId: string): void {
  sessionStorage.removeItem(tokenKey(shareId));
}

/** A problem+json answer's code and detail (empty when the answer is not one). */
async function problemOf(response: Response): Promise<{ code?: string; detail?: string }> {
  try {
    return (await response.json()) as { code?: string; detail?: string };
  } catch {
    return {};
  }
}

export interface ShareFailure {
  status: number;
  code?: string;
  detail: string;
}

const base = (shareId: string) => `/api/public/shares/${encodeURIComponent(shareId)}`;

/** GET the share's view, with the viewer token when there is one. */
export async function loadShare(
  shareId: string,
  tenantId: string,
  viewerToken: string | undefined,
): Promise<{ ok: true; view: PublicShareView } | { ok: false; failure: ShareFailure }> {
  const response = await fetch(`${base(shareId)}?tenantId=${encodeURIComponent(tenantId)}`, {
    credentials: 'same-origin',
    headers: viewerToken ? { 'x-share-token': viewerToken } : {},
  });
  if (response.ok) return { ok: true, view: (await response.json()) as PublicShareView };
  const problem = await problemOf(response);
  return {
    ok: false,
    failure: { status: response.status, code: problem.code, detail: problem.detail ?? '' },
  };
}

/** POST the passcode: a viewer token when right, else the refusal (each wrong one is counted). */
export async function unlockShare(
  shareId: string,
  tenantId: string,
  passcode: string,
): Promise<{ ok: true; token: ViewerTokenResponse } | { ok: false; failure: ShareFailure }> {
  const response = await fetch(`${base(shareId)}/unlock?tenantId=${encodeURIComponent(tenantId)}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ passcode }),
  });
  if (response.ok) return { ok: true, token: (await response.json()) as ViewerTokenResponse };
  const problem = await problemOf(response);
  return {
    ok: false,
    failure: { status: response.status, code: problem.code, detail: problem.detail ?? '' },
  };
}

/**
 * A file of the share shown inline ('preview') or saved ('download'): a plain address (images, frames and links
 * cannot send headers, so the viewer token goes in the query). The drive answers with a redirect to the object store,
 * or with watermarked bytes.
 */
export function fileUrl(
  shareId: string,
  tenantId: string,
  fileId: string,
  as: 'preview' | 'download',
  viewerToken: string | undefined,
): string {
  const query = new URLSearchParams({ tenantId });
  if (viewerToken) query.set('token', viewerToken);
  return `${base(shareId)}/files/${encodeURIComponent(fileId)}/${as}?${query.toString()}`;
}
