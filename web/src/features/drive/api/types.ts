// The drive's views under the names the screens use: each is the service's own (`@workspace/drive/contract`, from the
// schemas that validate its answers), or identity's for the colleague directory.
import type {
  DriveAbilitiesResponse,
  DriveView,
  FileDownloadResponse,
  FolderView,
  LibraryView,
  FileListItem,
  FileListQuery as FileListInput,
  FileListResponse,
  FilePreviewResponse,
  StorageSummaryResponse,
} from '@workspace/drive/contract';
import type { FileSortKey, FileView, SortDirection, VisibilityFilter } from '@workspace/drive/domain';

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

/** A drive (GET /api/drive/drives): members, settings, stats. */
export type Drive = DriveView;
/** A library (GET /api/drive/libraries). */
export type Library = LibraryView;
/** A folder (GET /api/drive/drives/:driveId/folders). */
export type Folder = FolderView;

/** A colleague of GET /api/users/directory (identity's directory, any signed-in member). */
export interface Colleague {
  uid: string;
  displayName: string;
  fullName: string;
  email: string;
  username: string;
}
