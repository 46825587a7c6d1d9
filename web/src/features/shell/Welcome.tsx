import { Result } from 'antd';
import type { Session } from '../../app/api';

/** Shown when the tenant has no module enabled. */
export function Welcome({ session }: { session: Session }) {
  return (
    <Result
      status="info"
      title={`Welcome to ${session.tenant.name}`}
      subTitle="No modules are enabled for your organisation yet. An administrator can enable them in the organisation settings."
    />
  );
}
