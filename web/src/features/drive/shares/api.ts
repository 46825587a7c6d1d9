// The share screens' calls of the bff (`/api/drive/...` forwarded to the drive, `/api/users/directory` to identity),
// injected into the app's RTK Query API. Every change sends an X-Idempotency-Key (drive.md §7), so a retried click
// cannot make a second share.
import type { DriveAbilitiesResponse, LibrariesResponse } from '@workspace/drive/contract';
import { api } from '../../../app/api';
import type {
  CreateShareInput,
  Share,
  ShareDetail,
  ShareList,
  ShareSettingsInput,
  ShareStatus,
} from './types';

/** A colleague of the Share File dialog (identity's directory). */
export interface Colleague {
  uid: string;
  displayName: string;
  fullName: string;
  email: string;
  username: string;
}

export const idempotencyKey = (): string => crypto.randomUUID();

export const sharesApi = api
  .enhanceEndpoints({ addTagTypes: ['DriveShares', 'DriveShareAbilities'] })
  .injectEndpoints({
    endpoints: (build) => ({
      shareAbilities: build.query<DriveAbilitiesResponse, undefined>({
        query: () => '/drive/me/abilities',
        providesTags: ['DriveShareAbilities'],
      }),
      shares: build.query<ShareList, { status?: ShareStatus; q?: string }>({
        query: (params) => ({ url: '/drive/shares', params }),
        providesTags: ['DriveShares'],
      }),
      share: build.query<ShareDetail, string>({
        query: (shareId) => `/drive/shares/${encodeURIComponent(shareId)}`,
        providesTags: ['DriveShares'],
      }),
      createShare: build.mutation<Share, CreateShareInput>({
        query: (body) => ({
          url: '/drive/mutations/share',
          method: 'POST',
          body,
          headers: { 'x-idempotency-key': idempotencyKey() },
        }),
        invalidatesTags: ['DriveShares'],
      }),
      shareSettings: build.mutation<Share, { shareId: string } & ShareSettingsInput>({
        query: ({ shareId, ...body }) => ({
          url: `/drive/shares/${encodeURIComponent(shareId)}/settings`,
          method: 'POST',
          body,
          headers: { 'x-idempotency-key': idempotencyKey() },
        }),
        invalidatesTags: ['DriveShares'],
      }),
      rebuildShare: build.mutation<{ removed: number; message: string }, string>({
        query: (shareId) => ({
          url: `/drive/shares/${encodeURIComponent(shareId)}/rebuild`,
          method: 'POST',
          body: {},
          headers: { 'x-idempotency-key': idempotencyKey() },
        }),
        invalidatesTags: ['DriveShares'],
      }),
      revokeShare: build.mutation<Share, string>({
        query: (shareId) => ({
          url: `/drive/shares/${encodeURIComponent(shareId)}/revoke`,
          method: 'POST',
          // No reason: the drive records its default, 'Manual revocation' (drive.md §7).
          body: {},
          headers: { 'x-idempotency-key': idempotencyKey() },
        }),
        invalidatesTags: ['DriveShares'],
      }),
      shareLinkCopied: build.mutation<unknown, string>({
        query: (shareId) => ({
          url: `/drive/shares/${encodeURIComponent(shareId)}/link-copied`,
          method: 'POST',
          body: {},
        }),
      }),
      shareLibraries: build.query<LibrariesResponse, undefined>({
        query: () => '/drive/libraries',
      }),
      shareLibraryFiles: build.query<{ items: { id: string; name: string }[] }, string>({
        query: (libraryId) => ({ url: '/drive/files', params: { view: 'all', libraryId, pageSize: 200 } }),
      }),
      colleagues: build.query<{ items: Colleague[] }, undefined>({
        query: () => '/users/directory',
      }),
      shareFileWith: build.mutation<unknown, { fileId: string; userIds: string[] }>({
        query: ({ fileId, userIds }) => ({
          url: `/drive/files/${encodeURIComponent(fileId)}/share-with`,
          method: 'POST',
          body: { userIds },
          headers: { 'x-idempotency-key': idempotencyKey() },
        }),
      }),
    }),
  });

export const {
  useShareAbilitiesQuery,
  useLazyShareAbilitiesQuery,
  useSharesQuery,
  useShareQuery,
  useCreateShareMutation,
  useShareSettingsMutation,
  useRebuildShareMutation,
  useRevokeShareMutation,
  useShareLinkCopiedMutation,
  useColleaguesQuery,
  useShareLibrariesQuery,
  useLazyShareLibrariesQuery,
  useShareLibraryFilesQuery,
  useShareFileWithMutation,
} = sharesApi;
