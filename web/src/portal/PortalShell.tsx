import { Alert, Button, Layout, Result, Spin, theme, Typography } from 'antd';
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { NavLink, Outlet } from 'react-router';
import type { PortalRecords } from '@workspace/cis/contract';
import {
  endAtExpiry,
  fetchSession,
  forgetSession,
  portalJson,
  SESSION_ENDED_EVENT,
  sessionRecheck,
  storedSession,
  storeSession,
  type PortalSession,
} from './session';

/** What every portal page reads: the session, the subcontractor's records, and a reload after a change. */
export interface PortalContextValue {
  session: PortalSession;
  records: PortalRecords | null;
  error: string | null;
  reload: () => Promise<void>;
}

const PortalContext = createContext<PortalContextValue | null>(null);

export function usePortal(): PortalContextValue {
  const value = useContext(PortalContext);
  if (!value) throw new Error('usePortal outside the portal shell');
  return value;
}

/** The portal's pages, in the order of the navigation. */
export const PORTAL_PAGES = [
  { path: '/portal/dashboard', label: 'Dashboard' },
  { path: '/portal/invoices', label: 'Invoices' },
  { path: '/portal/statements', label: 'Statements' },
  { path: '/portal/tax-year', label: 'Tax year' },
  { path: '/portal/profile', label: 'Profile' },
] as const;

/**
 * The signed-in portal: the locally kept session opens it at once (the bff confirms it in the background; a 401
 * ends it), the header names the contractor and the subcontractor and offers Log out, and the navigation leads to
 * each page. An open page notices an ended session without waiting for its next call: at the session's expiry, and
 * when it comes back into view (useSessionWatch).
 */
export function PortalShell() {
  const [session, setSession] = useState<PortalSession | null | undefined>(
    () => storedSession() ?? undefined,
  );
  useEffect(() => {
    void fetchSession().then((current) => {
      if (current) storeSession(current);
      else forgetSession();
      setSession(current);
    });
    // Ended while in use (revoked, expired, signed out elsewhere): the sign-in page says so (portalaccess).
    const ended = () => {
      window.location.replace('/portal-login?ended=1');
    };
    window.addEventListener(SESSION_ENDED_EVENT, ended);
    return () => {
      window.removeEventListener(SESSION_ENDED_EVENT, ended);
    };
  }, []);
  if (session === undefined)
    return (
      <div style={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }}>
        <Spin size="large" />
      </div>
    );
  if (session === null) {
    return (
      <Result
        status="info"
        title="Your portal session has ended"
        subTitle="Ask your contractor for a new sign-in link."
        extra={<Button href="/portal-login?ended=1">Sign in again</Button>}
      />
    );
  }
  return <SignedIn session={session} onRefreshed={setSession} />;
}

/**
 * Ends an open page's session when it ends, not at its next call: a timer to the expiry, and a re-check (the bff's
 * session, then cis's answer through `confirm`) when the page comes back into view, so a subcontractor who left the
 * portal open on their phone and returns sees 'Your portal session has ended' at once (session.ts sessionRecheck).
 */
function useSessionWatch(
  session: PortalSession,
  confirm: () => Promise<void>,
  refreshed: (current: PortalSession) => void,
) {
  useEffect(() => endAtExpiry(session.expiresAt), [session.expiresAt]);
  const latest = useRef({ session, confirm, refreshed });
  latest.current = { session, confirm, refreshed };
  useEffect(() => {
    const recheck = sessionRecheck(
      () => latest.current.session,
      () => latest.current.confirm(),
      (current) => {
        latest.current.refreshed(current);
      },
    );
    document.addEventListener('visibilitychange', recheck);
    window.addEventListener('focus', recheck);
    window.addEventListener('pageshow', recheck);
    return () => {
      document.removeEventListener('visibilitychange', recheck);
      window.removeEventListener('focus', recheck);
      window.removeEventListener('pageshow', recheck);
    };
  }, []);
}

function SignedIn({
  session,
  onRefreshed,
}: {
  session: PortalSession;
  onRefreshed: (current: PortalSession) => void;
}) {
  const [records, setRecords] = useState<PortalRecords | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setRecords(await portalJson<PortalRecords>('/api/portal/cis/me'));
      setError(null);
    } catch (failure) {
      setError((failure as Error).message);
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  useSessionWatch(session, reload, onRefreshed);
  const logout = async () => {
    await fetch('/api/portal/logout', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'x-csrf-token': session.csrfToken },
    });
    forgetSession();
    window.location.replace('/portal-login?signedOut=1');
  };
  return (
    <PortalContext.Provider value={{ session, records, error, reload }}>
      <Layout style={{ minHeight: '100vh' }}>
        <PortalHeader
          contractor={session.tenant.name}
          subcontractor={records?.subcontractor.name ?? ''}
          onLogout={() => void logout()}
        />
        <PortalNav />
        <Layout.Content
          style={{
            padding: 'clamp(12px, 4vw, 24px)',
            display: 'grid',
            gap: 16,
            alignContent: 'start',
            gridTemplateColumns: 'minmax(0, 1fr)',
            width: '100%',
            maxWidth: 1200,
            margin: '0 auto',
            boxSizing: 'border-box',
          }}
        >
          {error ? <Alert type="error" showIcon title={error} /> : null}
          <Outlet />
        </Layout.Content>
      </Layout>
    </PortalContext.Provider>
  );
}

/**
 * Contractor and subcontractor names with Log out. On a phone the names take their own lines and wrap (a long name
 * is never cut off), Log out stays on screen.
 */
function PortalHeader({
  contractor,
  subcontractor,
  onLogout,
}: {
  contractor: string;
  subcontractor: string;
  onLogout: () => void;
}) {
  return (
    <Layout.Header
      data-testid="portal-header"
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: 12,
        height: 'auto',
        minHeight: 64,
        lineHeight: 1.35,
        padding: '10px clamp(12px, 4vw, 48px)',
      }}
    >
      <div style={{ display: 'grid', minWidth: 0, flex: '1 1 auto' }}>
        <Typography.Text
          strong
          style={{ color: '#fff', overflowWrap: 'anywhere' }}
          data-testid="portal-contractor"
        >
          {contractor}
        </Typography.Text>
        <Typography.Text
          style={{ color: 'rgba(255,255,255,0.85)', overflowWrap: 'anywhere' }}
          data-testid="portal-subcontractor"
        >
          {subcontractor}
        </Typography.Text>
      </div>
      <Button onClick={onLogout} style={{ flex: 'none' }}>
        Log out
      </Button>
    </Layout.Header>
  );
}

function PortalNav() {
  const { token } = theme.useToken();
  return (
    <nav
      aria-label="Portal"
      data-testid="portal-nav"
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 4,
        padding: '8px clamp(8px, 4vw, 48px)',
        background: token.colorBgContainer,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      {PORTAL_PAGES.map((page) => (
        <NavLink
          key={page.path}
          to={page.path}
          style={({ isActive }) => ({
            padding: '6px 10px',
            borderRadius: token.borderRadius,
            textDecoration: 'none',
            fontWeight: isActive ? 600 : 400,
            background: isActive ? token.colorPrimaryBg : 'transparent',
            color: isActive ? token.colorPrimary : token.colorText,
          })}
        >
          {page.label}
        </NavLink>
      ))}
    </nav>
  );
}

/** A page's title and what it is for. */
export function PageTitle({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div>
      <Typography.Title level={2} style={{ marginBottom: children ? 4 : 0 }}>
        {title}
      </Typography.Title>
      {children ? <Typography.Paragraph type="secondary">{children}</Typography.Paragraph> : null}
    </div>
  );
}

/** A page's body once the records are in. */
export function WithRecords({ children }: { children: (records: PortalRecords) => ReactNode }) {
  const { records, error } = usePortal();
  if (records) return <>{children(records)}</>;
  if (error) return null;
  return <Spin />;
}
