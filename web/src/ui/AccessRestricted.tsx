import { LockOutlined } from '@ant-design/icons';
import { Alert, Card, Descriptions, Typography } from 'antd';

export interface AccessRestrictedProps {
  /** What the user tried to do, e.g. "manage organisation settings". */
  action: string;
  /** The scope that would allow it. */
  permission: string;
  user: string;
  organisation: string;
}

/** The Access Restricted page: who, where, what permission is needed, and how to get it. */
export function AccessRestricted({ action, permission, user, organisation }: AccessRestrictedProps) {
  return (
    <Card style={{ maxWidth: 560, margin: '48px auto' }}>
      <Typography.Title level={3}>
        <LockOutlined /> Access Restricted
      </Typography.Title>
      <Typography.Paragraph>You don&apos;t have permission to {action}</Typography.Paragraph>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="User">{user}</Descriptions.Item>
        <Descriptions.Item label="Organisation">{organisation}</Descriptions.Item>
        <Descriptions.Item label="Required permission">
          <Typography.Text code>{permission}</Typography.Text>
        </Descriptions.Item>
      </Descriptions>
      <Alert
        style={{ marginTop: 16 }}
        type="info"
        showIcon
        title="Need Access?"
        description="Ask an administrator of your organisation to give you this permission."
      />
    </Card>
  );
}
