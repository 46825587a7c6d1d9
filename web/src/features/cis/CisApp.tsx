import { Alert, Skeleton, Tabs } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import type { Session } from '../../app/api';
import { AccessRestricted } from '../../ui/AccessRestricted';
import { useCisAbilitiesQuery } from './api';
import { CisDashboard } from './CisDashboard';
import { CisSettings } from './CisSettings';
import { CisTopBar } from './components/CisTopBar';
import { cisSection } from './components/sections';
import { CisContext, type CisContextValue } from './context';
import { InvoiceDetail } from './InvoiceDetail';
import { InvoiceForm } from './InvoiceForm';
import { InvoiceImport } from './InvoiceImport';
import { InvoiceList } from './InvoiceList';
import { errorMessage, errorStatus } from '../../ui/problem';
import { Returns } from './Returns';
import { Statements } from './Statements';
import { SubcontractorDetail } from './SubcontractorDetail';
import { SubcontractorForm } from './SubcontractorForm';
import { SubcontractorList } from './SubcontractorList';

// recharts is large: the analytics screen loads on its first visit.
const CisAnalytics = lazy(() =>
  import('./CisAnalytics').then((module) => ({ default: module.CisAnalytics })),
);

const sectionTabs = [
  { key: 'dashboard', label: 'Dashboard', to: '/cis' },
  { key: 'subcontractors', label: 'Subcontractors', to: '/cis/subcontractors' },
  { key: 'invoices', label: 'Invoices', to: '/cis/invoices' },
  { key: 'statements', label: 'Statements', to: '/cis/statements' },
  { key: 'returns', label: 'Returns', to: '/cis/returns' },
  { key: 'analytics', label: 'Analytics', to: '/cis/analytics' },
  { key: 'settings', label: 'Settings', to: '/cis/settings' },
];

/**
 * The CIS module: the caller's UI flags (GET /api/cis/me/abilities) drive every button; a user without CIS
 * scopes meets the Access Restricted page. Mounted by the shell at /cis/* inside the module's error boundary.
 */
export function CisApp({ session }: { session: Session }) {
  const { data, error, isLoading } = useCisAbilitiesQuery(undefined);
  const location = useLocation();
  const navigate = useNavigate();
  const context = useMemo<CisContextValue | null>(
    () => (data ? { abilities: data.abilities, testingTools: data.testingTools, session } : null),
    [data, session],
  );

  if (isLoading) return <Skeleton active paragraph={{ rows: 6 }} />;
  if ((error && errorStatus(error) === 403) || (context && !context.abilities.canView))
    return (
      <AccessRestricted
        action="use the CIS module"
        permission="cis.read"
        user={session.user.email}
        organisation={session.tenant.name}
      />
    );
  if (error || !context)
    return <Alert type="error" showIcon title={`CIS could not be loaded: ${errorMessage(error)}`} />;

  return (
    <CisContext.Provider value={context}>
      <div data-testid="cis-module">
        <Tabs
          activeKey={cisSection(location.pathname)}
          onChange={(key) => {
            const tab = sectionTabs.find((item) => item.key === key);
            if (tab) void navigate(tab.to);
          }}
          items={sectionTabs.map(({ key, label }) => ({ key, label }))}
          style={{ marginBottom: 0 }}
        />
        <CisTopBar />
        <Routes>
          <Route index element={<CisDashboard />} />
          <Route path="subcontractors" element={<SubcontractorList />} />
          <Route path="subcontractors/new" element={<SubcontractorForm />} />
          <Route path="subcontractors/:id" element={<SubcontractorDetail />} />
          <Route path="subcontractors/:id/edit" element={<SubcontractorForm />} />
          <Route path="invoices" element={<InvoiceList />} />
          <Route path="invoices/new" element={<InvoiceForm />} />
          <Route path="invoices/import" element={<InvoiceImport />} />
          <Route path="invoices/:id" element={<InvoiceDetail />} />
          <Route path="invoices/:id/edit" element={<InvoiceForm />} />
          <Route path="statements" element={<Statements />} />
          <Route path="returns" element={<Returns />} />
          <Route
            path="analytics"
            element={
              <Suspense fallback={<Skeleton active paragraph={{ rows: 10 }} />}>
                <CisAnalytics />
              </Suspense>
            }
          />
          <Route path="settings" element={<CisSettings />} />
          <Route path="*" element={<Navigate to="/cis" replace />} />
        </Routes>
      </div>
    </CisContext.Provider>
  );
}
