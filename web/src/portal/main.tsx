import { App as AntApp, ConfigProvider } from 'antd';
import enGB from 'antd/locale/en_GB';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { buildTheme, defaultAppearance } from '../ui/appearance';
import { PortalLoginPage } from './login/PortalLoginPage';
import { DashboardPage } from './pages/DashboardPage';
import { InvoicesPage } from './pages/InvoicesPage';
import { ProfilePage } from './pages/ProfilePage';
import { StatementsPage } from './pages/StatementsPage';
import { TaxYearPage } from './pages/TaxYearPage';
import { PortalShell } from './PortalShell';

/** The staff app's theme at its defaults: the same font (and type scale) as the staff app. */
const theme = buildTheme(defaultAppearance, false);

/** The subcontractor portal: /portal-login, then a page of its own per /portal/* route inside the portal shell. */
export function PortalApp() {
  return (
    <ConfigProvider theme={theme} locale={enGB}>
      <AntApp>
        <BrowserRouter>
          <Routes>
            <Route path="/portal-login" element={<PortalLoginPage />} />
            <Route path="/portal" element={<PortalShell />}>
              <Route path="dashboard" element={<DashboardPage />} />
              <Route path="invoices" element={<InvoicesPage />} />
              <Route path="statements" element={<StatementsPage />} />
              <Route path="tax-year" element={<TaxYearPage />} />
              <Route path="profile" element={<ProfilePage />} />
              <Route index element={<Navigate to="/portal/dashboard" replace />} />
              <Route path="*" element={<Navigate to="/portal/dashboard" replace />} />
            </Route>
            <Route path="*" element={<Navigate to="/portal/dashboard" replace />} />
          </Routes>
        </BrowserRouter>
      </AntApp>
    </ConfigProvider>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <PortalApp />
    </StrictMode>,
  );
}
