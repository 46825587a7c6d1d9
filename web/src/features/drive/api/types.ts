// The drive's views as the screens read them. The service's schemas (`@workspace/drive/contract`) are the source:
// each type here is the contract's where it has landed, else the shape the screens were built against (NEWS.md).
import type { DriveAbilitiesResponse } from '@workspace/drive/contract';
import type {
  DriveColour,
  DriveType,
  FileStatus,
  FileTypeClass,
  FileVisibility,
  FolderColour,
  MemberRole,
} from '@workspace/drive/domain';

export type { DriveAbilitiesResponse };
export type DriveAbilities = DriveAbilitiesResponse['abilities'];

/** The list's views (drive.md §2). */
export type FileView = 'all' | 'mine' | 'shared' | 'recent' | 'starred' | 'trash';
export type VisibilityFilter = 'all' | 'private' | 'shared';
export type SortField =
  'name' | 'drive' | 'library' | 'folder' | 'owner' | 'size' | 'shared' | 'createdAt' | 'updatedAt';
export type SortOrder = 'asc' | 'desc';

export interface FileListQuery {
  view: FileView;
  visibility?: VisibilityFilter;
  driveId?: string;
  libraryId?: string;
  folderId?: string;
  q?: string;
  sort?: SortField;
  direction?: SortOrder;
  page?: number;
  pageSize?: number;
}

/** One file of the list. */
export interface DriveFile {
  id: string;
  name: string;
  ext: string;
  mimeType: string;
  typeClass: FileTypeClass;
  size: number;
  driveId: string;
  driveName: string;
  libraryId: string;
  libraryName: string;
  folderId: string | null;
  folderName: string | null;
  ownerId: string;
  ownerName: string;
  visibility: FileVisibility;
  sharedWith: string[];
  sharedWithCount?: number;
  status: FileStatus;
  orphanedRef: boolean;
  starred: boolean;
  createdAt: string;
  binnedAt?: string | null;
}

export interface FileList {
  items: DriveFile[];
  total: number;
  page: number;
  pageSize: number;
}

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

/** GET /api/drive/download with Accept: application/json: the presigned URL. */
export interface DownloadLink {
  url: string;
  name: string;
  size: number;
}

/** GET /api/drive/preview: what to show, with the text (CSV, JSON, text) or a URL (PDF, image, video, audio). */
export interface PreviewAnswer {
  kind: 'pdf' | 'image' | 'video' | 'audio' | 'csv' | 'json' | 'text' | 'none';
  name: string;
  mimeType: string;
  size: number;
  text?: string;
  url?: string;
  message?: string;
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

/** GET /api/drive/storage: the tenant's cap and use, in bytes. */
export interface StorageSummary {
  used: number;
  cap: number;
  tier: string;
  fileCount: number;
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

export interface Colleague {
  id: string;
  name: string;
  email: string;
}
