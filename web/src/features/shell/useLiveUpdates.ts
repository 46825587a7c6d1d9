import { useEffect } from 'react';
import { useDispatch } from 'react-redux';
import { api } from '../../app/api';
import type { AppDispatch } from '../../app/store';
import { openLiveStream } from '../../ui/liveStream';
import { cisApi } from '../cis/api';
import { brandingApi } from '../settings/brandingApi';

/** What GET /api/live sends (identity's /v1/live): ids and what changed, never the new values. */
interface LiveData {
  changed?: string[];
  uid?: string;
}

/**
 * Live updates of the shell (WS-368, WS-369): one stream on /api/live per tab (openLiveStream). Each event refetches
 * what it changed: the session (branding, modules, name, the user's status and role), the logo, the footer; scope
 * changes (role bundles, the whitelist, the user's own role or bundles) first renew the session's access token so the
 * new scopes apply. After a reconnection everything is refetched, as events may have been missed meanwhile.
 */
export function useLiveUpdates(uid: string | undefined): void {
  const dispatch = useDispatch<AppDispatch>();
  useEffect(() => {
    if (!uid) return;
    const refetch = (tags: ('Session' | 'Logo' | 'Footer')[]) => {
      dispatch(brandingApi.util.invalidateTags(tags));
    };
    const renewScopes = () => {
      void dispatch(api.endpoints.renewSession.initiate(undefined))
        .unwrap()
        .catch(() => undefined)
        .finally(() => {
          dispatch(cisApi.util.invalidateTags(['CisAbilities', 'CisRoles']));
        });
    };
    const read = (event: MessageEvent<string>): LiveData => {
      try {
        return JSON.parse(event.data) as LiveData;
      } catch {
        return {};
      }
    };

    const onTenant = (event: MessageEvent<string>) => {
      const changed = read(event).changed ?? [];
      const tags = new Set<'Session' | 'Logo' | 'Footer'>();
      if (changed.includes('logo')) tags.add('Logo');
      if (changed.includes('footer')) tags.add('Footer');
      // Branding, modules and the name are in the session (as is anything not named).
      if (changed.length === 0 || changed.some((part) => part !== 'logo' && part !== 'footer'))
        tags.add('Session');
      refetch([...tags]);
    };
    const onUser = (event: MessageEvent<string>) => {
      const data = read(event);
      if (data.uid !== uid) return;
      if (data.changed?.some((part) => part === 'role' || part === 'bundleIds')) renewScopes();
      else refetch(['Session']);
    };
    const onScopes = () => {
      renewScopes();
    };

    return openLiveStream('/api/live', {
      events: { tenant: onTenant, user: onUser, whitelist: onScopes, roles: onScopes },
      onReconnect: () => {
        refetch(['Session', 'Logo', 'Footer']);
      },
    });
  }, [dispatch, uid]);
}
