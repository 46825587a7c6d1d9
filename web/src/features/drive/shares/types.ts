// The shares' views as the screens read them: the drive's shares schemas (services/drive/src/http/shares.schemas.ts
// and public-shares.schemas.ts, ADR 0047). Written out until those land on this branch's main; then
// `import type` from '@workspace/drive/contract' replaces each.

export type ShareVisibility = 'tenant' | 'public' | 'restricted';
export type ShareStatus = 'active' | 'expired';

export interface SharePolicy {
  allowDownload: boolean;
  watermark: boolean;
  /** ISO timestamp; null: no expiry. */
  expiresAt: string | null;
}

/** GET /api/drive/shares (items) and /shares/:id. */
export interface Share {
  id: string;
  name: string;
  libraryId: string;
  status: ShareStatus;
  visibility: ShareVisibility;
  allowedUids: string[];
  fileCount: number;
  policy: SharePolicy;
  passcode: { required: boolean; locked: boolean };
  /** The public page's path and query: /share/{id}?tenantId={tenant}. */
  url: string;
  revokedAt: string | null;
  revokeReason: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export interface ShareList {
  items: Share[];
  counts: { all: number; active: number; expired: number };
}

export interface ShareDetail extends Share {
  files: { id: string; name: string; size: number; mimeType: string; missing: boolean }[];
}

/** POST /api/drive/mutations/share. */
export interface CreateShareInput {
  name: string;
  libraryId: string;
  fileIds: string[];
  visibility: ShareVisibility;
  allowedUids: string[];
  policy?: Partial<SharePolicy>;
  passcode?: string;
}

/** POST /api/drive/shares/:id/settings. */
export interface ShareSettingsInput {
  updates: {
    visibility?: ShareVisibility;
    allowedUids?: string[];
    policy?: Partial<SharePolicy>;
  };
  /** A new passcode; null removes it; absent keeps it. */
  passcode?: string | null;
}

/** GET /api/public/shares/:id. */
export interface PublicShareView {
  id: string;
  name: string;
  visibility: ShareVisibility;
  policy: SharePolicy;
  files: { id: string; name: string; size: number; mimeType: string; typeClass: string }[];
  viewer: { signedIn: boolean; name: string };
}

/** POST /api/public/shares/:id/unlock. */
export interface ViewerTokenResponse {
  viewerToken: string;
  expiresAt: string;
}
