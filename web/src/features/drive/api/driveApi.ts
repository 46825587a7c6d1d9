// The drive's endpoints of the bff (`/api/drive/*` → the drive's `/v1/*`), injected into the app's RTK Query API.
// Tags make every mutation refresh the lists it changes; the files stream (useFileStream) refreshes them when
// someone else changes them.
import type {
  CreateDriveRequest,
  CreateLibraryRequest,
  DeleteResponse,
  DriveCreatedResponse,
  DriveUpdatedResponse,
  EmptyTrashResponse,
  FolderAssignRequest,
  FolderAssignResponse,
  FolderCreateRequest,
  FolderCreateResponse,
  FolderDeleteRequest,
  FolderDeleteResponse,
  FolderUpdateRequest,
  FolderUpdateResponse,
  LibraryCreatedResponse,
  PurgeRequest,
  PurgeResponse,
  RepairRefsRequest,
  RepairRefsResponse,
  RestoreRequest,
  RestoreResponse,
  UpdateDriveRequest,
} from '@workspace/drive/contract';
import { api } from '../../../app/api';
import type {
  Colleague,
  Drive,
  DriveAbilitiesResponse,
  FileList,
  FileListQuery,
  Folder,
  Library,
  StorageSummary,
} from './types';

const driveTags = [
  'DriveAbilities',
  'DriveFiles',
  'Drives',
  'DriveLibraries',
  'DriveFolders',
  'DriveStorage',
] as const;

const search = (params: Record<string, string | number | undefined | null>): string => {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  const text = query.toString();
  return text ? `?${text}` : '';
};

/** A mutation's idempotency key: random, or the spec's form for deletes (tenant:file:delete). */
const idempotent = (key: string = crypto.randomUUID()) => ({ 'x-idempotency-key': key });

export const driveApi = api.enhanceEndpoints({ addTagTypes: driveTags }).injectEndpoints({
  endpoints: (build) => ({
    /**
     * The caller's abilities, which the drive derives from the session token's scopes (identity's effective scopes
     * of the tenant). They follow the session: when it is fetched again (the shell renews the token after a
     * whitelist, role-bundle or role change, useLiveUpdates), so are they, and the screens show the new scopes.
     */
    driveAbilities: build.query<DriveAbilitiesResponse, undefined>({
      query: () => '/drive/me/abilities',
      providesTags: ['DriveAbilities', 'Session'],
    }),
    files: build.query<FileList, FileListQuery>({
      query: (filters) => `/drive/files${search({ ...filters })}`,
      providesTags: ['DriveFiles'],
    }),
    storage: build.query<StorageSummary, undefined>({
      query: () => '/drive/storage',
      providesTags: ['DriveStorage'],
    }),
    drives: build.query<{ drives: Drive[] }, undefined>({
      query: () => '/drive/drives',
      providesTags: ['Drives'],
    }),
    libraries: build.query<{ libraries: Library[] }, { driveId?: string }>({
      query: ({ driveId }) => `/drive/libraries${search({ driveId })}`,
      providesTags: ['DriveLibraries'],
    }),
    folders: build.query<{ items: Folder[] }, { driveId: string }>({
      query: ({ driveId }) => `/drive/drives/${encodeURIComponent(driveId)}/folders`,
      providesTags: ['DriveFolders'],
    }),
    people: build.query<{ items: Colleague[] }, undefined>({
      query: () => '/users/directory',
    }),

    createDrive: build.mutation<DriveCreatedResponse, CreateDriveRequest>({
      query: (body) => ({ url: '/drive/drives/create', method: 'POST', body, headers: idempotent() }),
      invalidatesTags: ['Drives', 'DriveLibraries'],
    }),
    updateDrive: build.mutation<DriveUpdatedResponse, UpdateDriveRequest>({
      query: (body) => ({ url: '/drive/drives/update', method: 'POST', body, headers: idempotent() }),
      invalidatesTags: ['Drives', 'DriveFiles'],
    }),
    createLibrary: build.mutation<LibraryCreatedResponse, CreateLibraryRequest>({
      query: (body) => ({ url: '/drive/libraries', method: 'POST', body, headers: idempotent() }),
      invalidatesTags: ['DriveLibraries'],
    }),
    createFolder: build.mutation<FolderCreateResponse, FolderCreateRequest>({
      query: (body) => ({ url: '/drive/folders/create', method: 'POST', body, headers: idempotent() }),
      invalidatesTags: ['DriveFolders'],
    }),
    updateFolder: build.mutation<FolderUpdateResponse, FolderUpdateRequest>({
      query: (body) => ({ url: '/drive/folders/update', method: 'POST', body, headers: idempotent() }),
      invalidatesTags: ['DriveFolders', 'DriveFiles'],
    }),
    deleteFolder: build.mutation<FolderDeleteResponse, FolderDeleteRequest>({
      query: (body) => ({ url: '/drive/folders/delete', method: 'POST', body, headers: idempotent() }),
      invalidatesTags: ['DriveFolders', 'DriveFiles'],
    }),
    /** Move files into a folder (null: the root), then refresh the drive's folder counts. */
    folderAssign: build.mutation<FolderAssignResponse, FolderAssignRequest & { driveId: string }>({
      async queryFn(body, _api, _extra, baseQuery) {
        const moved = await baseQuery({
          url: '/drive/mutations/folder-assign',
          method: 'POST',
          body,
          headers: idempotent(),
        });
        if (moved.error) return { error: moved.error };
        await baseQuery({
          url: '/drive/folders/update-counts',
          method: 'POST',
          body: { driveId: body.driveId },
          headers: idempotent(),
        });
        return { data: moved.data as FolderAssignResponse };
      },
      invalidatesTags: ['DriveFolders', 'DriveFiles'],
    }),

    /** Trash a file (or delete it for good when the drive says so); one call per file. */
    deleteFile: build.mutation<DeleteResponse, { tenantId: string; fileId: string }>({
      query: (body) => ({
        url: '/drive/mutations/delete',
        method: 'POST',
        body,
        headers: idempotent(`${body.tenantId}:${body.fileId}:delete`),
      }),
      invalidatesTags: ['DriveFiles', 'DriveStorage', 'DriveFolders'],
    }),
    purgeFile: build.mutation<PurgeResponse, PurgeRequest>({
      query: (body) => ({ url: '/drive/mutations/purge', method: 'POST', body, headers: idempotent() }),
      invalidatesTags: ['DriveFiles', 'DriveStorage', 'DriveFolders'],
    }),
    restoreFiles: build.mutation<RestoreResponse, RestoreRequest>({
      query: (body) => ({ url: '/drive/mutations/restore', method: 'POST', body, headers: idempotent() }),
      invalidatesTags: ['DriveFiles', 'DriveStorage', 'DriveFolders'],
    }),
    emptyTrash: build.mutation<EmptyTrashResponse, undefined>({
      query: () => ({ url: '/drive/mutations/empty-trash', method: 'POST', body: {}, headers: idempotent() }),
      invalidatesTags: ['DriveFiles', 'DriveStorage'],
    }),
    repairRefs: build.mutation<RepairRefsResponse, RepairRefsRequest>({
      query: (body) => ({
        url: '/drive/mutations/repair-refs',
        method: 'POST',
        body,
        headers: idempotent(),
      }),
      invalidatesTags: ['DriveFiles'],
    }),
    setStar: build.mutation<unknown, { fileId: string; starred: boolean }>({
      query: ({ fileId, starred }) => ({
        url: `/drive/files/${encodeURIComponent(fileId)}/star`,
        method: starred ? 'PUT' : 'DELETE',
      }),
      invalidatesTags: ['DriveFiles'],
    }),
    clearStars: build.mutation<unknown, undefined>({
      query: () => ({ url: '/drive/files/stars', method: 'DELETE' }),
      invalidatesTags: ['DriveFiles'],
    }),
    clearRecent: build.mutation<unknown, undefined>({
      query: () => ({ url: '/drive/files/recent', method: 'DELETE' }),
      invalidatesTags: ['DriveFiles'],
    }),
  }),
});

export const {
  useDriveAbilitiesQuery,
  useFilesQuery,
  useStorageQuery,
  useDrivesQuery,
  useLibrariesQuery,
  useFoldersQuery,
  usePeopleQuery,
  useCreateDriveMutation,
  useUpdateDriveMutation,
  useCreateLibraryMutation,
  useCreateFolderMutation,
  useUpdateFolderMutation,
  useDeleteFolderMutation,
  useFolderAssignMutation,
  useDeleteFileMutation,
  usePurgeFileMutation,
  useRestoreFilesMutation,
  useEmptyTrashMutation,
  useRepairRefsMutation,
  useSetStarMutation,
  useClearStarsMutation,
  useClearRecentMutation,
} = driveApi;

/** Refetches every file list (the files stream, an upload finished). */
export const invalidateFiles = () =>
  driveApi.util.invalidateTags(['DriveFiles', 'DriveStorage', 'DriveFolders']);
