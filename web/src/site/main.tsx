import { Button, Card, ConfigProvider, Form, Input, Layout, Space, Typography } from 'antd';
import enGB from 'antd/locale/en_GB';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

const LAST_TENANT = 'workspace.lastTenant';

function safeReturnTo(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/';
}

/**
 * Sign-in starts here: the organisation id picks the tenant (and its IdP); the bff does the rest. 'Use another
 * account' signs in with prompt=login: the IdP asks for credentials even while its own sign-in is alive (a shared
 * PC, a second account).
 */
function Login() {
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
    <Card style={{ maxWidth: 400, margin: '12vh auto' }}>
      <Typography.Title level={3}>Sign in to Workspace</Typography.Title>
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
          rules={[
            { required: true, message: 'Enter your organisation id' },
            { pattern: /^[a-z0-9][a-z0-9_-]*$/, message: 'Lowercase letters, digits, _ or -' },
          ]}
        >
          <Input
            autoFocus
            placeholder="e.g. demo"
            onChange={(event) => {
              setTenant(event.target.value);
            }}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block>
          Continue
        </Button>
        <Button type="link" block onClick={() => void signInWithAnotherAccount()} style={{ marginTop: 8 }}>
          Use another account
        </Button>
      </Form>
    </Card>
  );
}

function Home() {
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header
        style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}
        id="top"
      >
        <Typography.Text strong style={{ color: '#fff', fontSize: 18 }}>
          Workspace
        </Typography.Text>
        <Button type="primary" href="/login">
          Sign in
        </Button>
      </Layout.Header>
      <Layout.Content style={{ padding: '64px 24px', maxWidth: 880, margin: '0 auto' }}>
        <Typography.Title>The workspace UK construction contractors run their week on</Typography.Title>
        <Typography.Paragraph style={{ fontSize: 18 }}>
          CIS returns, documents, calendar and notes in one place, with a portal for your subcontractors.
          Modular and bespoke as a service: you pay per module.
        </Typography.Paragraph>
        <Space orientation="vertical" size="middle" id="process">
          <Typography.Text>Go live in 7-10 business days.</Typography.Text>
          <Typography.Text>
            A full export of your data when you leave, and tenant termination within 24 hours.
          </Typography.Text>
        </Space>
      </Layout.Content>
    </Layout>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ConfigProvider locale={enGB}>
        {window.location.pathname === '/login' ? <Login /> : <Home />}
      </ConfigProvider>
    </StrictMode>,
  );
}
