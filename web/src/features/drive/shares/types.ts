// The shares' views as the screens read them: the drive's contract (ADR 0028; services/drive/src/http/shares.schemas.ts
// and public-shares.schemas.ts), by `import type` only.
import type {
  CreateShareRequest,
  PublicShareView,
  ShareDetail,
  ShareListResponse,
  ShareSettingsRequest,
  ShareView,
  ShareViewerToken,
} from '@workspace/drive/contract';

export type Share = ShareView;
export type ShareList = ShareListResponse;
export type { ShareDetail, PublicShareView };
export type ShareVisibility = ShareView['visibility'];
export type ShareStatus = ShareView['status'];
export type SharePolicy = ShareView['policy'];
export type CreateShareInput = Omit<CreateShareRequest, 'tenantId'>;
export type ShareSettingsInput = Omit<ShareSettingsRequest, 'tenantId'>;
export type ViewerTokenResponse = ShareViewerToken;
