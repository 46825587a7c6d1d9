import { Button, ConfigProvider, Layout, Result, Spin, Typography } from 'antd';
import enGB from 'antd/locale/en_GB';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

interface PortalSession {
  subcontractorId: string;
  tenant: { id: string; name: string };
  /** Sent back as x-csrf-token on every state-changing call (logout included). */
  csrfToken: string;
}

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
          <Typography.Text style={{ color: '#fff', marginRight: 16 }}>
            {session.subcontractorId}
          </Typography.Text>
          <Button onClick={() => void logout()}>Log out</Button>
        </span>
      </Layout.Header>
      <Layout.Content style={{ padding: 24 }}>
        <Typography.Title level={2}>Subcontractor portal</Typography.Title>
        <Typography.Paragraph>
          Your invoices and statements from {session.tenant.name} will appear here.
        </Typography.Paragraph>
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
