import { Result, Typography } from 'antd';
import type { Session } from '../../app/api';
import { ukDate } from '../../ui/format';

/** Shown when the tenant has no module enabled (the sidebar falls back to it at /welcome). */
export function Welcome({ session }: { session: Session }) {
  return (
    <Result
      status="info"
      title={`Welcome to ${session.tenant.name}`}
      subTitle="No modules are enabled for your organisation yet. An administrator can enable them in the organisation settings."
      extra={
        <Typography.Text type="secondary" data-testid="welcome-date">
          Today is {ukDate(new Date())}
        </Typography.Text>
      }
    />
  );
}
