import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import type { FooterSettings, Tenant, User } from '@workspace/identity/contract';
import type { Appearance } from '../ui/appearance';
import type { UserStatus } from '../ui/UserAvatar';

/** GET /api/auth/session: the bff's own view (its schema is in bff/src/http/auth-routes.ts), holding identity's. */
export interface Session {
  authenticated: true;
  user: User;
  tenant: Tenant;
  scopes: string[];
  csrfToken: string;
}

/**
 * POST /api/auth/logout and /api/auth/logout-all (the bff's own view, bff/src/http/auth-routes.ts): where the
 * browser goes next, the IdP's end-session URL (it ends the IdP's own sign-in, then comes back to /login) or /login.
 */
export interface SignedOut {
  redirectTo: string;
}

let csrfToken = '';

/** The session's CSRF token (empty before the session is read), for a state-changing call made outside RTK Query. */
export const currentCsrfToken = (): string => csrfToken;

/** How many requests to the bff are in flight (drives the loading bar); subscribe with useSyncExternalStore. */
export const inFlight = (() => {
  let count = 0;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  return {
    get: () => count,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    track: async <T>(work: Promise<T>): Promise<T> => {
      count++;
      notify();
      try {
        return await work;
      } finally {
        count--;
        notify();
      }
    },
  };
})();

const fetchFromBff = fetchBaseQuery({
  baseUrl: '/api',
  credentials: 'same-origin',
  prepareHeaders: (headers) => {
    if (csrfToken) headers.set('x-csrf-token', csrfToken);
    return headers;
  },
});

const trackedQuery: typeof fetchFromBff = (args, queryApi, extra) =>
  inFlight.track(Promise.resolve(fetchFromBff(args, queryApi, extra)));

/** The bff's API. Every state-changing call carries the session's CSRF token. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: trackedQuery,
  tagTypes: ['Session', 'Footer'],
  endpoints: (build) => ({
    session: build.query<Session, undefined>({
      query: () => '/auth/session',
      transformResponse: (session: Session) => {
        csrfToken = session.csrfToken;
        return session;
      },
      providesTags: ['Session'],
    }),
    updateMe: build.mutation<User, { status?: UserStatus; themePreference?: Partial<Appearance> }>({
      query: (body) => ({ url: '/me', method: 'PATCH', body }),
      // The session holds the user: patch it in place, so the shell reflects the change without a refetch.
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled;
        dispatch(
          api.util.updateQueryData('session', undefined, (session) => {
            session.user = data;
          }),
        );
      },
    }),
    footer: build.query<FooterSettings, undefined>({
      query: () => '/tenant/footer',
      providesTags: ['Footer'],
    }),
    saveFooter: build.mutation<FooterSettings, FooterSettings>({
      query: (body) => ({ url: '/tenant/footer', method: 'PUT', body }),
      invalidatesTags: ['Footer'],
    }),
    /**
     * Renews the session's access token now (POST /auth/set-token), so changed scopes (role bundles, the whitelist,
     * the user's role) take effect; the session is fetched again.
     */
    renewSession: build.mutation<unknown, undefined>({
      query: () => ({ url: '/auth/set-token', method: 'POST', body: {} }),
      invalidatesTags: ['Session'],
    }),
    logout: build.mutation<SignedOut, undefined>({
      query: () => ({ url: '/auth/logout', method: 'POST' }),
    }),
    /** Sign out of all sessions: every session of the user ends, on every device (ASVS 3.3.4). */
    logoutEverywhere: build.mutation<SignedOut, undefined>({
      query: () => ({ url: '/auth/logout-all', method: 'POST' }),
    }),
  }),
});

export const {
  useSessionQuery,
  useUpdateMeMutation,
  useLogoutMutation,
  useLogoutEverywhereMutation,
  useFooterQuery,
  useSaveFooterMutation,
} = api;

/**
 * What a module's Try Again does before it renders the module again: forgets the data the shell's cache holds
 * (every tag but the session's). The crashed module's queries have no subscriber while its error shows, so they
 * are dropped and fetched afresh when it mounts again; queries still in use elsewhere (the footer) are refetched.
 */
export function forgetModuleData(): ThunkAction<
  void,
  { api: ReturnType<typeof api.reducer> },
  unknown,
  UnknownAction
> {
  return (dispatch, getState) => {
    const provided = getState().api.provided.tags as Record<string, unknown>;
    const types = Object.keys(provided).filter((type) => type !== 'Session');
    if (types.length > 0) dispatch(api.util.invalidateTags(types as never[]));
  };
}

/**
 * Starts a query now, for the page that will ask for it, and lets go of it once it is answered: from then on the
 * endpoint's own keepUnusedDataFor applies (60 s by default; the page subscribes long before). An endpoint that keeps
 * nothing unused (the CIS dashboard) keeps the answer only if the page subscribed before it came, else the page asks
 * again. Nothing is held past the answer, so a crashed module's Try Again (forgetModuleData) still starts afresh.
 */
export function preloadQuery(
  dispatch: (action: never) => unknown,
  initiate: ThunkAction<{ unsubscribe(): void }, never, unknown, UnknownAction>,
): void {
  const started = dispatch(initiate as never) as PromiseLike<unknown> & { unsubscribe(): void };
  const release = () => {
    started.unsubscribe();
  };
  Promise.resolve(started).then(release, release);
}
