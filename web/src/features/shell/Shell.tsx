import { AppstoreOutlined, LogoutOutlined, MenuOutlined, SettingOutlined } from '@ant-design/icons';
import { SHELL_PAGES } from '@workspace/rules';
import {
  App as AntApp,
  Button,
  ConfigProvider,
  Drawer,
  Layout,
  Menu,
  Space,
  Spin,
  Tag,
  theme as antdTheme,
  Typography,
} from 'antd';
import enGB from 'antd/locale/en_GB';
import { useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useDispatch } from 'react-redux';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router';
import {
  forgetModuleData,
  inFlight,
  useLogoutEverywhereMutation,
  useLogoutMutation,
  useSessionQuery,
  type Session,
} from '../../app/api';
import { landingRoute, shellModules } from '../../app/modules';
import { moduleViews } from '../../app/moduleViews';
import type { AppDispatch } from '../../app/store';
import {
  buildTheme,
  defaultAppearance,
  effectiveLayout,
  isSuperAdmin,
  MOBILE_BREAKPOINT,
  PLATFORM_THEME,
  tenantAccent,
  type Appearance,
} from '../../ui/appearance';
import { useConfirm, useToast } from '../../ui/feedback';
import { photoOf } from '../../ui/photo';
import { LoadingBar } from '../../ui/LoadingBar';
import { ModuleErrorBoundary } from '../../ui/ModuleErrorBoundary';
import { AUDIT_ROUTE, AuditLogRoute, auditNavItem } from '../audit/nav';
import { moduleCrashReporter } from '../audit/reportCrash';
import { AppearanceSettings } from '../settings/AppearanceSettings';
import { ColourSettings } from '../settings/ColourSettings';
import { LogoSettings } from '../settings/LogoSettings';
import { OrganisationSettings } from '../settings/OrganisationSettings';
import { NotificationsPage } from '../notifications/NotificationsPage';
import { AppFooter } from './AppFooter';
import { moduleIcons } from './moduleIcons';
import { NotificationBell } from './NotificationBell';
import { StatusPicker } from './StatusPicker';
import { TenantLogo } from './TenantLogo';
import { useLiveUpdates } from './useLiveUpdates';
import { Welcome } from './Welcome';

function useWindowWidth(): number {
  const [width, setWidth] = useState(window.innerWidth);
  useEffect(() => {
    const onResize = () => {
      setWidth(window.innerWidth);
    };
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return width;
}

function usePrefersDark(): boolean {
  const query = useMemo(() => window.matchMedia('(prefers-color-scheme: dark)'), []);
  const [dark, setDark] = useState(query.matches);
  useEffect(() => {
    const onChange = () => {
      setDark(query.matches);
    };
    query.addEventListener('change', onChange);
    return () => {
      query.removeEventListener('change', onChange);
    };
  }, [query]);
  return dark;
}

/** True while any request to the bff is in flight: drives the loading bar. */
function useAnyRequestPending(): boolean {
  return useSyncExternalStore(inFlight.subscribe, inFlight.get) > 0;
}

export function appearanceOf(session: Session | undefined): Appearance {
  const saved = session?.user.themePreference ?? {};
  const accent = tenantAccent(session?.tenant.branding);
  return {
    ...defaultAppearance,
    ...(accent ? { accent } : {}),
    ...saved,
  };
}

/** The modules the shell offers the tenant: enabled, and with screens in this version. */
const offeredModules = (session: Session) => shellModules(session.tenant.modules, moduleViews);

function Navigation({ session, mode }: { session: Session; mode: 'inline' | 'horizontal' }) {
  const location = useLocation();
  const modules = offeredModules(session);
  const audit = auditNavItem(session);
  const items = [
    ...(modules.length === 0
      ? [{ key: '/welcome', label: <Link to="/welcome">Welcome</Link>, icon: <AppstoreOutlined /> }]
      : []),
    ...modules.map((module) => ({
      key: module.route,
      label: <Link to={module.route}>{module.label}</Link>,
      icon: moduleIcons[module.icon],
    })),
    ...(audit ? [audit] : []),
    {
      key: '/settings/appearance',
      label: <Link to="/settings/appearance">Settings</Link>,
      icon: <SettingOutlined />,
    },
  ];
  const selected = items.find((item) => location.pathname.startsWith(item.key))?.key;
  return (
    <Menu
      mode={mode}
      items={items}
      selectedKeys={selected ? [selected] : []}
      aria-label="Modules"
      style={
        mode === 'horizontal'
          ? { flex: 1, minWidth: 0, borderBottom: 0, background: 'transparent' }
          : { borderInlineEnd: 0 }
      }
    />
  );
}

function ShellLayout({ session, appearance }: { session: Session; appearance: Appearance }) {
  const width = useWindowWidth();
  const layout = effectiveLayout(appearance.layout, width);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [logout] = useLogoutMutation();
  const location = useLocation();
  useEffect(() => {
    setDrawerOpen(false);
  }, [location.pathname]);
  const { token } = antdTheme.useToken();
  const dispatch = useDispatch<AppDispatch>();
  const retry = () => {
    dispatch(forgetModuleData());
  };
  const superAdmin = isSuperAdmin(session.scopes);
  const modules = offeredModules(session);
  const home = landingRoute(modules);
  // A phone's width (under the mobile breakpoint): the top bar keeps to one line, the content to the screen.
  const compact = width < MOBILE_BREAKPOINT;
  const [logoutEverywhere] = useLogoutEverywhereMutation();
  const confirm = useConfirm();
  const toast = useToast();
  // Signed out here; the bff answers where to go next: the IdP's end-session page (it ends the IdP's own sign-in,
  // so the next sign-in asks for credentials, and comes back to /login), or /login.
  const signOut = async () => {
    const signedOut = await logout(undefined)
      .unwrap()
      .catch(() => undefined);
    window.location.assign(signedOut?.redirectTo ?? '/login');
  };
  const signOutEverywhere = async () => {
    const sure = await confirm({
      title: 'Sign out of all sessions?',
      message:
        'You will be signed out on every device and browser where you are signed in, this one included.',
      confirmText: 'Sign out of all sessions',
      style: 'danger',
    });
    if (!sure) return;
    try {
      const signedOut = await logoutEverywhere(undefined).unwrap();
      window.location.assign(signedOut.redirectTo);
    } catch {
      toast.error('Your other sessions could not be signed out. Please try again.');
    }
  };

  const header = (
    <Layout.Header
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: compact ? 8 : 16,
        paddingInline: compact ? 8 : 16,
        height: '3.5rem',
        lineHeight: '3.5rem',
        background: token.colorBgContainer,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
      }}
      data-layout={layout}
      data-testid="top-bar"
    >
      {layout === 'topbar' && (
        <Button
          type="text"
          icon={<MenuOutlined />}
          aria-label="Open navigation"
          onClick={() => {
            setDrawerOpen(true);
          }}
        />
      )}
      <div style={{ minWidth: 0, flexShrink: 1, overflow: 'hidden', display: 'flex' }}>
        <TenantLogo name={session.tenant.name} />
      </div>
      {superAdmin && (
        <Tag color={PLATFORM_THEME.accent} data-testid="platform-theme">
          Platform admin
        </Tag>
      )}
      {layout === 'topbar-nav' ? (
        <Navigation session={session} mode="horizontal" />
      ) : (
        <div style={{ flex: 1 }} />
      )}
      <Space size={compact ? 4 : 'small'} style={{ flexShrink: 0 }}>
        <NotificationBell uid={session.user.uid} compact={compact} />
        <StatusPicker
          uid={session.user.uid}
          name={session.user.displayName || session.user.email}
          status={session.user.status}
          photoUrl={photoOf(session.user)}
          compact={compact}
          onSignOutEverywhere={() => void signOutEverywhere()}
        />
        <Button
          type="text"
          icon={<LogoutOutlined />}
          aria-label={compact ? 'Sign out' : undefined}
          title={compact ? 'Sign out' : undefined}
          onClick={() => void signOut()}
        >
          {compact ? null : 'Sign out'}
        </Button>
      </Space>
    </Layout.Header>
  );

  const content = (
    <Layout.Content style={{ padding: compact ? 12 : 24, minWidth: 0 }}>
      <Routes>
        <Route path="/" element={<Navigate to={home} replace />} />
        <Route path={SHELL_PAGES.welcome} element={<Welcome session={session} />} />
        {modules.map((module) => {
          const View = moduleViews.get(module.id);
          if (!View) return null;
          return (
            <Route
              key={module.id}
              path={`${module.route.split('/').slice(0, 2).join('/')}/*`}
              element={
                <ModuleErrorBoundary
                  key={module.id}
                  onRetry={retry}
                  module={module.label}
                  onError={moduleCrashReporter(module.id)}
                >
                  <View session={session} />
                </ModuleErrorBoundary>
              }
            />
          );
        })}
        <Route
          path={AUDIT_ROUTE}
          element={
            <ModuleErrorBoundary key="audit" onRetry={retry} module="Audit log">
              <AuditLogRoute session={session} />
            </ModuleErrorBoundary>
          }
        />
        <Route
          path={`${SHELL_PAGES.settings}/appearance`}
          element={
            <ModuleErrorBoundary key="settings-appearance" onRetry={retry} module="Settings">
              <AppearanceSettings current={appearance} session={session} />
            </ModuleErrorBoundary>
          }
        />
        <Route
          path={`${SHELL_PAGES.settings}/organisation`}
          element={
            <ModuleErrorBoundary key="settings-organisation" onRetry={retry} module="Settings">
              <OrganisationSettings session={session} />
            </ModuleErrorBoundary>
          }
        />
        <Route
          path={`${SHELL_PAGES.settings}/colours`}
          element={
            <ModuleErrorBoundary key="settings-colours" onRetry={retry} module="Settings">
              <ColourSettings session={session} />
            </ModuleErrorBoundary>
          }
        />
        <Route
          path={`${SHELL_PAGES.settings}/logo`}
          element={
            <ModuleErrorBoundary key="settings-logo" onRetry={retry} module="Settings">
              <LogoSettings session={session} />
            </ModuleErrorBoundary>
          }
        />
        <Route
          path={SHELL_PAGES.notifications}
          element={
            <ModuleErrorBoundary key="notifications" onRetry={retry} module="Notifications">
              <NotificationsPage />
            </ModuleErrorBoundary>
          }
        />
        <Route path="*" element={<Navigate to={home} replace />} />
      </Routes>
    </Layout.Content>
  );

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {layout === 'sidebar' ? (
        <>
          <Layout.Sider width={220} theme="light" data-testid="sidebar">
            <div style={{ height: '3.5rem', display: 'flex', alignItems: 'center', paddingInline: 24 }}>
              <Typography.Text strong>Workspace</Typography.Text>
            </div>
            <Navigation session={session} mode="inline" />
          </Layout.Sider>
          <Layout>
            {header}
            {content}
            <ModuleErrorBoundary onRetry={retry} module="Footer">
              <AppFooter />
            </ModuleErrorBoundary>
          </Layout>
        </>
      ) : (
        <>
          {header}
          {content}
          <ModuleErrorBoundary onRetry={retry} module="Footer">
            <AppFooter />
          </ModuleErrorBoundary>
          <Drawer
            open={drawerOpen}
            placement="left"
            title="Workspace"
            onClose={() => {
              setDrawerOpen(false);
            }}
            styles={{ body: { padding: 0 } }}
          >
            <Navigation session={session} mode="inline" />
          </Drawer>
        </>
      )}
    </Layout>
  );
}

/** The staff app shell: session, theme from the user's appearance settings, layout, navigation and routes. */
export function Shell(): ReactNode {
  const { data: session, error, isLoading } = useSessionQuery(undefined);
  const pending = useAnyRequestPending();
  const prefersDark = usePrefersDark();
  const appearance = appearanceOf(session);
  const theme = buildTheme(appearance, prefersDark, session?.tenant.branding, {
    superAdmin: isSuperAdmin(session?.scopes),
  });
  useLiveUpdates(session?.user.uid);

  useEffect(() => {
    if (error && 'status' in error && error.status === 401) {
      const returnTo = window.location.pathname + window.location.search;
      // A subcontractor's portal session (no staff session) belongs in the portal, not on the staff sign-in page.
      void fetch('/api/portal/session', { credentials: 'same-origin' }).then((portal) => {
        window.location.assign(
          portal.ok ? '/portal/dashboard' : `/login?returnTo=${encodeURIComponent(returnTo)}`,
        );
      });
    }
  }, [error]);

  return (
    <ConfigProvider theme={theme} locale={enGB}>
      <AntApp>
        <LoadingBar loading={pending} />
        {isLoading || !session ? (
          <div style={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }}>
            <Spin size="large" />
          </div>
        ) : (
          <ShellLayout session={session} appearance={appearance} />
        )}
      </AntApp>
    </ConfigProvider>
  );
}
