// The audit service's endpoints as the bff forwards them (`/api/audit/...`, docs/audit.md "The audit screen"),
// injected into the app's RTK Query API; the types are the service's own (@workspace/audit/contract).
import type {
  AuditEntryListQuery,
  AuditEntryListResponse,
  AuditVerifyResponse,
} from '@workspace/audit/contract';
import { api } from '../../app/api';
import type { AuditActor } from './present';

export const auditApi = api.enhanceEndpoints({ addTagTypes: ['AuditEntries'] }).injectEndpoints({
  endpoints: (build) => ({
    auditEntries: build.query<AuditEntryListResponse, AuditEntryListQuery>({
      query: (params) => ({ url: '/audit/entries', params }),
      providesTags: ['AuditEntries'],
    }),
    verifyAuditChain: build.mutation<AuditVerifyResponse, undefined>({
      query: () => ({ url: '/audit/verify', method: 'POST', body: {} }),
    }),
    /** The tenant's people, to show and pick actors by name (any signed-in member may read it). */
    auditActors: build.query<{ items: AuditActor[] }, undefined>({
      query: () => '/users/directory',
    }),
  }),
});

export const { useAuditEntriesQuery, useVerifyAuditChainMutation, useAuditActorsQuery } = auditApi;

/** Makes the list fetch again (a new entry arrived on the live stream). */
export const refreshAuditEntries = () => auditApi.util.invalidateTags(['AuditEntries']);
