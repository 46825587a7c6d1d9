import { Alert, Button, Card, ConfigProvider, Layout, Result, Spin, Table, Tag, Typography } from 'antd';
import enGB from 'antd/locale/en_GB';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

interface PortalSession {
  subcontractorId: string;
  tenant: { id: string; name: string };
  /** Sent back as x-csrf-token on every state-changing call (logout included). */
  csrfToken: string;
}

interface PortalRecords {
  subcontractor: { id: string; name: string; utrMasked: string; verification: { rate: number } };
  invoices: {
    id: string;
    invoiceNumber: string;
    invoiceDate: string | null;
    paymentDate: string | null;
    statusLabel: string;
    amounts: { grossP: number; materialsP: number; cisDeductionP: number; netPaymentP: number };
  }[];
  statements: {
    id: string;
    taxMonth: string;
    invoiceCount: number;
    issuedAt: string | null;
    totals: { grossP: number; materialsP: number; cisDeductionP: number };
  }[];
}

const pounds = (pence: number) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(pence / 100);
const ukDate = (iso: string | null) =>
  iso && !Number.isNaN(Date.parse(iso))
    ? new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London' }).format(new Date(iso))
    : 'N/A';
/** HMRC names a tax month by its end: label 2025-12 is the month ending 5 January 2026. */
const monthEnding = (label: string) => {
  const [year = 0, month = 1] = label.split('-').map(Number);
  const end = new Date(Date.UTC(month === 12 ? year + 1 : year, month % 12, 5));
  return `Tax month ending ${new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(end)}`;
};

async function readProblem(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { detail?: string };
    return body.detail ?? 'Something went wrong. Please try again.';
  } catch {
    return 'Something went wrong. Please try again.';
  }
}

/** /portal-login?tid=&token=: redeems the magic link once, then opens the portal. */
function PortalLogin() {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const tenantId = params.get('tid');
    const token = params.get('token');
    if (!tenantId || !token) {
      setError('This link is not valid.');
      return;
    }
    // The token leaves the address bar before anything else can read it.
    window.history.replaceState(null, '', '/portal-login');
    void fetch('/api/portal/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenantId, token }),
      credentials: 'same-origin',
    }).then(async (response) => {
      if (response.ok) window.location.replace('/portal/dashboard');
      else setError(await readProblem(response));
    });
  }, []);
  if (error) return <Result status="warning" title="We could not sign you in" subTitle={error} />;
  return (
    <div style={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }}>
      <Spin size="large" />
    </div>
  );
}

function Portal() {
  const [session, setSession] = useState<PortalSession | null | undefined>(undefined);
  useEffect(() => {
    void fetch('/api/portal/session', { credentials: 'same-origin' }).then(async (response) => {
      setSession(response.ok ? ((await response.json()) as PortalSession) : null);
    });
  }, []);
  if (session === undefined) return <Spin />;
  if (session === null) {
    return (
      <Result
        status="info"
        title="Your portal session has ended"
        subTitle="Ask your contractor for a new sign-in link."
      />
    );
  }
  return <PortalHome session={session} />;
}

function PortalHome({ session }: { session: PortalSession }) {
  const [records, setRecords] = useState<PortalRecords | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void fetch('/api/portal/cis/me', { credentials: 'same-origin' }).then(async (response) => {
      if (response.ok) setRecords((await response.json()) as PortalRecords);
      else setError(await readProblem(response));
    });
  }, []);
  const logout = async () => {
    await fetch('/api/portal/logout', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'x-csrf-token': session.csrfToken },
    });
    window.location.replace('/portal-login');
  };
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography.Text strong style={{ color: '#fff' }}>
          {session.tenant.name}
        </Typography.Text>
        <span>
          <Typography.Text style={{ color: '#fff', marginRight: 16 }} data-testid="portal-subcontractor">
            {records?.subcontractor.name ?? ''}
          </Typography.Text>
          <Button onClick={() => void logout()}>Log out</Button>
        </span>
      </Layout.Header>
      <Layout.Content style={{ padding: 24, display: 'grid', gap: 16 }}>
        <Typography.Title level={2}>Subcontractor portal</Typography.Title>
        {error ? <Alert type="error" showIcon title={error} /> : null}
        {!records && !error ? <Spin /> : null}
        {records ? (
          <>
            <Typography.Paragraph>
              Your invoices and payment and deduction statements from {session.tenant.name}. Tax is deducted
              at {records.subcontractor.verification.rate}% (UTR{' '}
              {records.subcontractor.utrMasked || 'not recorded'}).
            </Typography.Paragraph>
            <Card title="Payment and deduction statements">
              <Table
                rowKey="id"
                pagination={false}
                dataSource={records.statements}
                locale={{ emptyText: 'No statements issued yet' }}
                columns={[
                  { title: 'Period', dataIndex: 'taxMonth', render: (label: string) => monthEnding(label) },
                  { title: 'Invoices', dataIndex: 'invoiceCount' },
                  { title: 'Gross', render: (_, row) => pounds(row.totals.grossP) },
                  { title: 'Materials', render: (_, row) => pounds(row.totals.materialsP) },
                  { title: 'CIS deducted', render: (_, row) => pounds(row.totals.cisDeductionP) },
                  { title: 'Issued', render: (_, row) => ukDate(row.issuedAt) },
                  {
                    title: '',
                    render: (_, row) => (
                      <a href={`/api/portal/cis/statements/${row.id}/pdf`} target="_blank" rel="noreferrer">
                        Download PDF
                      </a>
                    ),
                  },
                ]}
              />
            </Card>
            <Card title="Invoices">
              <Table
                rowKey="id"
                dataSource={records.invoices}
                locale={{ emptyText: 'No invoices yet' }}
                columns={[
                  { title: 'Invoice', dataIndex: 'invoiceNumber' },
                  { title: 'Date', render: (_, row) => ukDate(row.invoiceDate) },
                  { title: 'Gross', render: (_, row) => pounds(row.amounts.grossP) },
                  { title: 'CIS', render: (_, row) => pounds(row.amounts.cisDeductionP) },
                  { title: 'Net', render: (_, row) => pounds(row.amounts.netPaymentP) },
                  {
                    title: 'Paid',
                    render: (_, row) => (row.paymentDate ? ukDate(row.paymentDate) : 'Not paid'),
                  },
                  { title: 'Status', render: (_, row) => <Tag>{row.statusLabel}</Tag> },
                ]}
              />
            </Card>
          </>
        ) : null}
      </Layout.Content>
    </Layout>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ConfigProvider locale={enGB}>
        {window.location.pathname.startsWith('/portal-login') ? <PortalLogin /> : <Portal />}
      </ConfigProvider>
    </StrictMode>,
  );
}
