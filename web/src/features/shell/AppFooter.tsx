import { Layout, Space, Typography } from 'antd';
import type { FooterSettings } from '@workspace/identity/contract';
import { useFooterQuery } from '../../app/api';

/** The links the footer shows, in order: About, Privacy, Terms, then the enabled custom links. */
export function footerLinks(footer: FooterSettings): { key: string; label: string; url: string }[] {
  return [
    ...(footer.showAbout && footer.aboutUrl
      ? [{ key: 'about', label: footer.aboutLabel, url: footer.aboutUrl }]
      : []),
    ...(footer.showPrivacy && footer.privacyUrl
      ? [{ key: 'privacy', label: footer.privacyLabel, url: footer.privacyUrl }]
      : []),
    ...(footer.showTerms && footer.termsUrl
      ? [{ key: 'terms', label: footer.termsLabel, url: footer.termsUrl }]
      : []),
    ...footer.links
      .filter((link) => link.enabled)
      .map((link) => ({ key: link.id, label: link.label, url: link.url })),
  ];
}

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
            target={link.url.startsWith('/') ? undefined : '_blank'}
            rel="noreferrer"
          >
            {link.label}
          </Typography.Link>
        ))}
        {footer.showPoweredBy && <Typography.Text type="secondary">{footer.poweredByText}</Typography.Text>}
      </Space>
    </Layout.Footer>
  );
}
