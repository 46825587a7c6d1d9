import { Button, Space, Typography } from 'antd';
import { PageBody } from '../SiteLayout';

/** Any path the site has no page for (the bff answers it with a 404 status). */
export function NotFound() {
  return (
    <PageBody narrow>
      <div style={{ textAlign: 'center', padding: '48px 0' }}>
        <Typography.Text type="secondary" style={{ fontSize: 64, fontWeight: 600, lineHeight: 1 }}>
          404
        </Typography.Text>
        <Typography.Title level={1} style={{ marginTop: 16 }}>
          Page not found
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ fontSize: 16 }}>
          There is no page at this address. It may have moved, or the link may be mistyped.
        </Typography.Paragraph>
        <Space wrap style={{ justifyContent: 'center' }}>
          <Button type="primary" href="/">
            Go to the home page
          </Button>
          <Button href="/help">Help</Button>
          <Button href="/login">Sign in</Button>
        </Space>
      </div>
    </PageBody>
  );
}
