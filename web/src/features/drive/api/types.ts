// The drive's views as the screens read them. The service's schemas (`@workspace/drive/contract`) are the source:
// each type here is the contract's where it has landed, else the shape the screens were built against (NEWS.md).
import type {
  DriveAbilitiesResponse,
  FileDownloadResponse,
  FileListItem,
  FileListQuery as FileListInput,
  FileListResponse,
  FilePreviewResponse,
  StorageSummaryResponse,
} from '@workspace/drive/contract';
import type {
  DriveColour,
  DriveType,
  FileSortKey,
  FileView,
  FolderColour,
  MemberRole,
  SortDirection,
  VisibilityFilter,
} from '@workspace/drive/domain';

export type { DriveAbilitiesResponse, FileView, VisibilityFilter };

/** GET /api/drive/files's query (page numbers as numbers). */
export type FileListQuery = Omit<FileListInput, 'page' | 'pageSize'> & { page?: number; pageSize?: number };
export type DriveAbilities = DriveAbilitiesResponse['abilities'];

export type SortField = FileSortKey;
export type SortOrder = SortDirection;

/** One file of the list (GET /api/drive/files). */
export type DriveFile = FileListItem;
export type FileList = FileListResponse;
/** GET /api/drive/storage. */
export type StorageSummary = StorageSummaryResponse;
/** GET /api/drive/download with Accept: application/json: the presigned URL. */
export type DownloadLink = FileDownloadResponse;
/** GET /api/drive/preview: the kind, and the text (CSV, JSON, text) or a URL (PDF, image, video, audio). */
export type PreviewAnswer = FilePreviewResponse;

export interface DriveMember {
  userId: string;
  role: MemberRole;
  displayName: string;
}

export interface Drive {
  id: string;
  name: string;
  type: DriveType;
  slug: string;
  ownerId: string;
  moduleId: string | null;
  members: DriveMember[];
  settings: {
    color: DriveColour;
    icon: string;
    description: string;
    quotaGB: number;
    defaultLibraryId: string | null;
  };
  stats: { fileCount: number; totalSize: number; lastActivity: string | null };
  createdAt: string;
}

export interface Library {
  id: string;
  driveId: string;
  driveName?: string;
  name: string;
  description: string;
  visibleInDriveUI: boolean;
  policies: { readOnly: boolean; legalHold: boolean; shareAllowed: boolean; allowedExtensions: string[] };
  createdAt: string;
}

export interface Folder {
  id: string;
  driveId: string;
  parentId: string | null;
  ancestors: string[];
  slug: string;
  name: string;
  color: FolderColour;
  fileCount: number;
  totalSize: number;
  createdAt: string;
}

export interface CreateDriveInput {
  drive: { name: string; type: 'shared'; memberIds: string[]; settings: { quotaGB: number } };
}

export interface UpdateDriveInput {
  driveId: string;
  updates: { name: string; settings: { description: string; color: DriveColour; quotaGB: number } };
}

export interface FolderInput {
  driveId: string;
  name: string;
  color: FolderColour;
  parentId: string | null;
}

export interface FolderUpdate {
  driveId: string;
  folderId: string;
  updates: { name?: string; color?: FolderColour; parentId?: string | null };
}

/** A colleague of GET /api/users/directory (identity's directory, any signed-in member). */
export interface Colleague {
  uid: string;
  displayName: string;
  fullName: string;
  email: string;
  username: string;
}
