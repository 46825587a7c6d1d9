import { Typography } from 'antd';
import { useLogoSettingsQuery } from '../settings/brandingApi';

/**
 * The tenant's logo where the shell shows the organisation: the image (served by the bff, its URL versioned by
 * the image's etag so a new one shows at once), the text logo as text, or the organisation's name when there is
 * no logo (or while it loads).
 */
export function TenantLogo({ name, height = 32 }: { name: string; height?: number }) {
  const { data: logo } = useLogoSettingsQuery(undefined);
  if (logo?.kind === 'image' && logo.etag) {
    return (
      <img
        data-testid="tenant-logo"
        data-logo-kind="image"
        src={`/api/tenant/logo?v=${logo.etag}`}
        alt={name}
        style={{ height, maxWidth: 'min(180px, 100%)', objectFit: 'contain', display: 'block' }}
      />
    );
  }
  return (
    <Typography.Text
      strong
      data-testid="tenant-logo"
      data-logo-kind={logo?.kind === 'text' ? 'text' : 'none'}
      style={{ fontSize: 16, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
      title={logo?.kind === 'text' && logo.text ? logo.text : name}
    >
      {logo?.kind === 'text' && logo.text ? logo.text : name}
    </Typography.Text>
  );
}
