import { Alert, Button, Card, Form, Input, Radio, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { readProblem, toFormFields } from '../../ui/problem';
import { SOMETHING_WRONG, storedSession, storeSession, type PortalSession } from '../session';
import {
  CONTRACTOR_CODE,
  rememberContractor,
  rememberedContractors,
  type RememberedContractor,
} from './contractors';

/** What the page says above the form, from the address it was opened at. */
type Notice =
  { kind: 'signedOut' } | { kind: 'ended' } | { kind: 'linkFailed'; detail: string } | { kind: 'none' };

const ANOTHER = '__another__';

export const SIGNED_OUT_TITLE = 'You have signed out';
export const SESSION_ENDED_TITLE = 'Your portal session has ended';
export const LINK_FAILED_TITLE = 'We could not sign you in';

interface LinkRequest {
  contractor: string;
  code?: string;
  email: string;
}

/**
 * /portal-login, built for a phone first:
 * - `?tid=&token=` (the link of an invitation or of a requested sign-in e-mail) redeems the link once, remembers the
 *   contractor on this device and opens the dashboard; a used or expired link says so and offers a new one for the
 *   same contractor (the link names it);
 * - `?signedOut=1` (Log out) and `?ended=1` (the session ended or portal access was revoked) say so;
 * - always: "Email me a sign-in link" for a contractor (one remembered on this device, the one a link named, or a
 *   contractor code) and an address. The answer is the same whether or not the address is known (ADR 0055).
 */
export function PortalLoginPage() {
  const navigate = useNavigate();
  const [params] = useState(() => new URLSearchParams(window.location.search));
  const tokenInLink = params.get('token');
  const tenantInLink = params.get('tid') ?? undefined;
  const [redeeming, setRedeeming] = useState(Boolean(tokenInLink && tenantInLink));
  const [notice, setNotice] = useState<Notice>(() =>
    params.get('signedOut')
      ? { kind: 'signedOut' }
      : params.get('ended')
        ? { kind: 'ended' }
        : { kind: 'none' },
  );

  useEffect(() => {
    if (!tokenInLink || !tenantInLink) {
      // Already signed in on this device (and not just signed out): straight to the portal.
      if (notice.kind === 'none' && storedSession()) void navigate('/portal/dashboard', { replace: true });
      return;
    }
    // The token leaves the address bar (and history) before anything else can read it; the contractor stays.
    window.history.replaceState(null, '', `/portal-login?tid=${encodeURIComponent(tenantInLink)}`);
    void fetch('/api/portal/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenantId: tenantInLink, token: tokenInLink }),
      credentials: 'same-origin',
    })
      .then(async (response) => {
        if (response.ok) {
          const session = (await response.json()) as PortalSession;
          storeSession(session);
          rememberContractor(session.tenant);
          void navigate('/portal/dashboard', { replace: true });
          return;
        }
        const problem = await readProblem(response);
        setNotice({ kind: 'linkFailed', detail: problem.detail ?? SOMETHING_WRONG });
        setRedeeming(false);
      })
      .catch(() => {
        setNotice({ kind: 'linkFailed', detail: SOMETHING_WRONG });
        setRedeeming(false);
      });
    // Runs once, for the address the page was opened at.
  }, []);

  return (
    <main
      style={{
        minHeight: '100vh',
        display: 'grid',
        alignContent: 'start',
        justifyItems: 'center',
        padding: 'clamp(16px, 6vw, 48px) 16px',
        boxSizing: 'border-box',
        background: '#f5f5f5',
      }}
    >
      <div style={{ width: '100%', maxWidth: 440, display: 'grid', gap: 16, minWidth: 0 }}>
        <Typography.Title level={2} style={{ margin: 0 }}>
          Subcontractor portal
        </Typography.Title>
        {redeeming ? (
          <Card data-testid="portal-login-redeeming">
            <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
              <Spin />
              <Typography.Text>Signing you in…</Typography.Text>
            </div>
          </Card>
        ) : (
          <>
            <NoticeAlert notice={notice} />
            <LinkRequestCard linkTenant={tenantInLink} />
          </>
        )}
      </div>
    </main>
  );
}

function NoticeAlert({ notice }: { notice: Notice }) {
  if (notice.kind === 'signedOut')
    return (
      <Alert
        data-testid="portal-login-notice"
        type="success"
        showIcon
        title={SIGNED_OUT_TITLE}
        description="To sign in again, ask for a new sign-in link below."
      />
    );
  if (notice.kind === 'ended')
    return (
      <Alert
        data-testid="portal-login-notice"
        type="warning"
        showIcon
        title={SESSION_ENDED_TITLE}
        description="It expired, or your contractor ended your portal access. Ask for a new sign-in link below; if your access has ended, no link is sent and your contractor can invite you again."
      />
    );
  if (notice.kind === 'linkFailed')
    return (
      <Alert
        data-testid="portal-login-notice"
        type="warning"
        showIcon
        title={LINK_FAILED_TITLE}
        description={`${notice.detail} You can also ask for a new sign-in link below.`}
      />
    );
  return null;
}

/** The contractors to offer: the one the link named first, then those remembered on this device. */
function offeredContractors(linkTenant: string | undefined): RememberedContractor[] {
  const remembered = rememberedContractors();
  if (!linkTenant || !CONTRACTOR_CODE.test(linkTenant)) return remembered;
  const named = remembered.find((contractor) => contractor.id === linkTenant);
  return [named ?? { id: linkTenant, name: '' }, ...remembered.filter((c) => c.id !== linkTenant)];
}

function LinkRequestCard({ linkTenant }: { linkTenant: string | undefined }) {
  const [form] = Form.useForm<LinkRequest>();
  const [contractors] = useState(() => offeredContractors(linkTenant));
  const [names, setNames] = useState<Record<string, string | null>>({});
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<{ message: string; email: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const watched = Form.useWatch('contractor', form) as string | undefined;
  const choice = watched ?? contractors[0]?.id ?? ANOTHER;

  // A contractor known only by its code (a link's) is shown by name when the bff knows it.
  const lookUp = async (code: string) => {
    if (!CONTRACTOR_CODE.test(code) || code in names) return;
    try {
      const response = await fetch('/api/metadata', { headers: { 'x-tenant-id': code } });
      const body = response.ok ? ((await response.json()) as { name: string | null }) : { name: null };
      setNames((known) => ({ ...known, [code]: body.name }));
    } catch {
      // The name is a nicety; the code is what is sent.
    }
  };
  useEffect(() => {
    for (const contractor of contractors) if (!contractor.name) void lookUp(contractor.id);
    // Once, for the contractors offered when the page opened.
  }, []);

  const nameOf = (contractor: RememberedContractor) =>
    contractor.name || names[contractor.id] || `Contractor code ${contractor.id}`;

  const submit = async (values: LinkRequest) => {
    const tenantId = (
      values.contractor === ANOTHER || !values.contractor ? (values.code ?? '') : values.contractor
    )
      .trim()
      .toLowerCase();
    setSending(true);
    setFailure(null);
    try {
      const response = await fetch('/api/portal/sign-in-links', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tenantId, email: values.email.trim() }),
        credentials: 'same-origin',
      });
      if (response.ok) {
        const body = (await response.json()) as { message: string };
        setSent({ message: body.message, email: values.email.trim() });
        return;
      }
      const problem = await readProblem(response);
      const fields = Object.fromEntries(
        (problem.errors ?? []).map((error) => [
          error.field === 'body.tenantId' ? 'code' : error.field.replace(/^body\./, ''),
          error.message,
        ]),
      );
      if (Object.keys(fields).length > 0)
        form.setFields(toFormFields(fields) as Parameters<typeof form.setFields>[0]);
      else setFailure(problem.detail ?? SOMETHING_WRONG);
    } catch {
      setFailure(SOMETHING_WRONG);
    } finally {
      setSending(false);
    }
  };

  if (sent)
    return (
      <Card data-testid="portal-login-sent">
        <div style={{ display: 'grid', gap: 12 }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            Check your email
          </Typography.Title>
          <Typography.Paragraph style={{ margin: 0 }} data-testid="portal-login-sent-message">
            {sent.message}
          </Typography.Paragraph>
          <Typography.Paragraph type="secondary" style={{ margin: 0, overflowWrap: 'anywhere' }}>
            We sent it to {sent.email} if that address is on file. Nothing after a few minutes? Check the
            address with your contractor, then ask again.
          </Typography.Paragraph>
          <Button
            onClick={() => {
              setSent(null);
            }}
          >
            Ask for another link
          </Button>
        </div>
      </Card>
    );

  return (
    <Card>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        Email me a sign-in link
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Enter the email address your contractor has for you. The link signs you in once, within 15 minutes.
      </Typography.Paragraph>
      <Form<LinkRequest>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ contractor: contractors[0]?.id ?? ANOTHER }}
        onFinish={(values) => void submit(values)}
        data-testid="portal-login-form"
      >
        {contractors.length > 0 ? (
          <Form.Item name="contractor" label="Contractor">
            <Radio.Group style={{ display: 'grid', gap: 8 }}>
              {contractors.map((contractor) => (
                <Radio key={contractor.id} value={contractor.id} style={{ overflowWrap: 'anywhere' }}>
                  {nameOf(contractor)}
                </Radio>
              ))}
              <Radio value={ANOTHER}>Another contractor</Radio>
            </Radio.Group>
          </Form.Item>
        ) : (
          <Form.Item name="contractor" hidden>
            <Input />
          </Form.Item>
        )}
        {choice === ANOTHER ? (
          <Form.Item
            name="code"
            label="Contractor code"
            extra="It is in the emails from your contractor's portal (your invitation or a sign-in link). Ask your contractor if you cannot find it."
            rules={[
              { required: true, message: 'Enter your contractor code' },
              {
                pattern: CONTRACTOR_CODE,
                transform: (value: string) => value.trim().toLowerCase(),
                message: 'Enter the contractor code from your invitation',
              },
            ]}
          >
            <Input autoCapitalize="none" autoCorrect="off" spellCheck={false} autoComplete="off" />
          </Form.Item>
        ) : null}
        <Form.Item
          name="email"
          label="Email address"
          rules={[
            { required: true, message: 'Enter your email address' },
            {
              type: 'email',
              transform: (value: string) => value.trim(),
              message: 'Enter a valid email address',
            },
          ]}
        >
          <Input type="email" inputMode="email" autoComplete="email" autoCapitalize="none" />
        </Form.Item>
        {failure ? (
          <Alert
            type="error"
            showIcon
            title={failure}
            style={{ marginBottom: 16 }}
            data-testid="portal-login-error"
          />
        ) : null}
        <Button type="primary" htmlType="submit" block size="large" loading={sending}>
          Email me a sign-in link
        </Button>
      </Form>
    </Card>
  );
}
