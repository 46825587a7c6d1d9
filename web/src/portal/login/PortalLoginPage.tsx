import { Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { problemDetail } from '../../ui/problem';
import { SOMETHING_WRONG, storeSession, type PortalSession } from '../session';

/**
 * PLACEHOLDER (helper "portal"): /portal-login?tid=&token= redeems the magic link once, keeps the session locally
 * and opens the dashboard. Helper "portalaccess" owns this file and replaces it with the full sign-in page.
 */
export function PortalLoginPage() {
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
      if (response.ok) {
        storeSession((await response.json()) as PortalSession);
        window.location.replace('/portal/dashboard');
      } else setError(await problemDetail(response, SOMETHING_WRONG));
    });
  }, []);
  if (error) return <Result status="warning" title="We could not sign you in" subTitle={error} />;
  return (
    <div style={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }}>
      <Spin size="large" />
    </div>
  );
}
