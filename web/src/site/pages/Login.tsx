import { Button, Card, Col, Form, Grid, Input, Row, Typography } from 'antd';
import { useState } from 'react';
import { PageBody } from '../SiteLayout';

const LAST_TENANT = 'workspace.lastTenant';

function safeReturnTo(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/';
}

/**
 * Sign-in starts here: the organisation id picks the tenant (and its IdP); the bff does the rest. 'Use another
 * account' signs in with prompt=login: the IdP asks for credentials even while its own sign-in is alive (a shared
 * PC, a second account).
 */
function SignInForm() {
  const params = new URLSearchParams(window.location.search);
  const [tenant, setTenant] = useState(localStorage.getItem(LAST_TENANT) ?? '');
  const [form] = Form.useForm();
  const error = params.get('error');
  const submit = (options: { anotherAccount?: boolean } = {}) => {
    const id = tenant.trim().toLowerCase();
    localStorage.setItem(LAST_TENANT, id);
    const query = new URLSearchParams({ tenant: id, returnTo: safeReturnTo(params.get('returnTo')) });
    if (options.anotherAccount) query.set('prompt', 'login');
    window.location.assign(`/api/auth/login?${query.toString()}`);
  };
  const signInWithAnotherAccount = async () => {
    try {
      await form.validateFields();
    } catch {
      return;
    }
    submit({ anotherAccount: true });
  };
  return (
    <Card>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        Sign in to Workspace
      </Typography.Title>
      {error && (
        <Typography.Paragraph type="danger" role="alert">
          Sign-in could not be completed. Please try again.
        </Typography.Paragraph>
      )}
      <Form
        form={form}
        layout="vertical"
        onFinish={() => {
          submit();
        }}
      >
        <Form.Item
          label="Organisation"
          name="tenant"
          initialValue={tenant}
          extra="Your organisation id, as your administrator gave it to you."
          rules={[
            { required: true, message: 'Enter your organisation id' },
            { pattern: /^[a-z0-9][a-z0-9_-]*$/, message: 'Lowercase letters, digits, _ or -' },
          ]}
        >
          <Input
            autoFocus
            placeholder="e.g. demo"
            autoCapitalize="none"
            onChange={(event) => {
              setTenant(event.target.value);
            }}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large">
          Continue
        </Button>
        <Button type="link" block onClick={() => void signInWithAnotherAccount()} style={{ marginTop: 8 }}>
          Use another account
        </Button>
      </Form>
    </Card>
  );
}

/** /login: the staff sign-in, and what it is for. */
export function Login() {
  const screens = Grid.useBreakpoint();
  return (
    <PageBody>
      <Row gutter={[screens.md ? 48 : 0, 32]} align="top">
        <Col xs={24} md={{ span: 12, order: 2 }}>
          <SignInForm />
        </Col>
        <Col xs={24} md={{ span: 12, order: 1 }}>
          <Typography.Title style={{ marginTop: 0 }}>Sign in</Typography.Title>
          <Typography.Paragraph style={{ fontSize: 16 }}>
            This is where a contractor’s staff sign in to their Workspace: CIS, the drive and the settings of
            their organisation.
          </Typography.Paragraph>
          <Typography.Title level={4}>How it works</Typography.Title>
          <ol style={{ paddingInlineStart: 20, fontSize: 15, lineHeight: 1.7 }}>
            <li>Enter your organisation id and choose Continue.</li>
            <li>
              You are taken to your organisation’s sign-in page, where you sign in with your work account and
              password.
            </li>
            <li>You come back to the page you were opening, signed in.</li>
          </ol>
          <Typography.Paragraph>
            Your organisation id is remembered on this device. On a shared computer, choose{' '}
            <Typography.Text strong>Use another account</Typography.Text> so your organisation’s sign-in page
            asks for your account even when someone else signed in before you.
          </Typography.Paragraph>
          <Typography.Title level={4}>Are you a subcontractor?</Typography.Title>
          <Typography.Paragraph>
            Subcontractors do not sign in here: use the sign-in link in the email your contractor sent you to
            open your portal.
          </Typography.Paragraph>
          <Typography.Paragraph>
            Not a customer yet? <Typography.Link href="/#top">See what Workspace does</Typography.Link>.
          </Typography.Paragraph>
        </Col>
      </Row>
    </PageBody>
  );
}
