import { Layout, Space, Typography } from 'antd';
import { useFooterQuery } from '../../app/api';
import { footerLinks } from './footerLinks';

/** The tenant's footer, as its settings describe it (hidden when Display footer is off). */
export function AppFooter() {
  const { data: footer } = useFooterQuery(undefined);
  if (!footer?.showFooter) return null;
  return (
    <Layout.Footer style={{ textAlign: 'center', padding: '16px 24px' }} data-testid="app-footer">
      <Space wrap separator={<Typography.Text type="secondary">·</Typography.Text>}>
        <Typography.Text type="secondary">
          © {new Date().getFullYear()} {footer.displayName}
        </Typography.Text>
        {footerLinks(footer).map((link) => (
          <Typography.Link
            key={link.key}
            href={link.url}
            target={link.sameTab ? undefined : '_blank'}
            rel="noopener noreferrer"
          >
            {link.label}
          </Typography.Link>
        ))}
        {footer.showPoweredBy && <Typography.Text type="secondary">{footer.poweredByText}</Typography.Text>}
      </Space>
    </Layout.Footer>
  );
}
