import { App as AntApp, ConfigProvider } from 'antd';
import enGB from 'antd/locale/en_GB';
import { StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
// The staff app's look (its default appearance: font, accent, corners), from the one place it is built.
import { buildTheme, defaultAppearance } from '../ui/appearance';
import { isSitePath, PAGE_TITLES, type SitePath } from './pages';
import { Help } from './pages/Help';
import { Home } from './pages/Home';
import { Login } from './pages/Login';
import { NotFound } from './pages/NotFound';
import { Privacy } from './pages/Privacy';
import { Terms } from './pages/Terms';
import { Vision } from './pages/Vision';
import { SiteLayout } from './SiteLayout';

const PAGES: Record<SitePath, () => ReactNode> = {
  '/': () => <Home />,
  '/login': () => <Login />,
  '/vision': () => <Vision />,
  '/help': () => <Help />,
  '/terms': () => <Terms />,
  '/privacy': () => <Privacy />,
};

// The public site (ADR 0019): the bff serves its entry at /, /login, /vision, /help, /terms and /privacy, and at any
// public path it does not know (with a 404 status), where the site shows its 404 page.
function Site({ path }: { path: string }) {
  const page = isSitePath(path) ? path : undefined;
  useEffect(() => {
    document.title = PAGE_TITLES[page ?? 'not-found'];
  }, [page]);
  return <SiteLayout>{page ? PAGES[page]() : <NotFound />}</SiteLayout>;
}

const theme = buildTheme(defaultAppearance, false);

const root = document.getElementById('root');
if (root) {
  const path = window.location.pathname;
  createRoot(root).render(
    <StrictMode>
      <ConfigProvider locale={enGB} theme={theme}>
        <AntApp>
          <Site path={path} />
        </AntApp>
      </ConfigProvider>
    </StrictMode>,
  );
}
