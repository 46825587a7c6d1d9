// The signature screens' calls (`/api/drive/signatures...`, forwarded to the drive), injected into the app's API.
import { api } from '../../../app/api';
import { idempotencyKey } from '../shares/api';
import type { SignTask, SignTaskListResponse, SignTaskResponse, SignTaskStatus } from './types';

export const signaturesApi = api.enhanceEndpoints({ addTagTypes: ['DriveSignatures'] }).injectEndpoints({
  endpoints: (build) => ({
    signatureTasks: build.query<
      SignTaskListResponse,
      { status: SignTaskStatus; scope: 'assigned' | 'created' }
    >({
      query: (params) => ({ url: '/drive/signatures', params }),
      providesTags: ['DriveSignatures'],
    }),
    requestSignature: build.mutation<
      { message: string; task: SignTask },
      { fileId: string; assignedToUid: string }
    >({
      query: (body) => ({
        url: '/drive/signatures',
        method: 'POST',
        body,
        headers: { 'x-idempotency-key': idempotencyKey() },
      }),
      invalidatesTags: ['DriveSignatures'],
    }),
    signTask: build.mutation<SignTaskResponse, { taskId: string; signature: string }>({
      query: ({ taskId, signature }) => ({
        url: `/drive/signatures/${encodeURIComponent(taskId)}/sign`,
        method: 'POST',
        body: { signature },
        headers: { 'x-idempotency-key': idempotencyKey() },
      }),
      invalidatesTags: ['DriveSignatures'],
    }),
    declineTask: build.mutation<{ task: SignTask }, { taskId: string; reason: string }>({
      query: ({ taskId, reason }) => ({
        url: `/drive/signatures/${encodeURIComponent(taskId)}/decline`,
        method: 'POST',
        body: { reason },
        headers: { 'x-idempotency-key': idempotencyKey() },
      }),
      invalidatesTags: ['DriveSignatures'],
    }),
  }),
});

export const {
  useSignatureTasksQuery,
  useRequestSignatureMutation,
  useSignTaskMutation,
  useDeclineTaskMutation,
} = signaturesApi;
