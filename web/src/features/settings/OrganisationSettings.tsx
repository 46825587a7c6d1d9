import { Card, Descriptions, Tag, Typography } from 'antd';
import type { Session } from '../../app/api';
import { AccessRestricted } from '../../ui/AccessRestricted';
import { FooterSettingsPanel } from './FooterSettingsPanel';
import { SettingsTabs } from './SettingsTabs';

const EDIT_SETTINGS = 'tenant.edit_settings';

/** Organisation settings are for holders of tenant.edit_settings; others meet the Access Restricted page. */
export function OrganisationSettings({ session }: { session: Session }) {
  const allowed = session.scopes.includes(EDIT_SETTINGS) || session.scopes.includes('*');
  return (
    <div>
      <Typography.Title level={2}>Settings</Typography.Title>
      <SettingsTabs />
      {allowed ? (
        <>
          <Card title="Organisation">
            <Descriptions column={1} bordered size="small">
              <Descriptions.Item label="Name">{session.tenant.name}</Descriptions.Item>
              <Descriptions.Item label="Organisation id">{session.tenant.id}</Descriptions.Item>
              <Descriptions.Item label="Data region">{session.tenant.region.toUpperCase()}</Descriptions.Item>
              <Descriptions.Item label="Storage tier">{session.tenant.storageTier}</Descriptions.Item>
              <Descriptions.Item label="Modules">
                {session.tenant.modules.map((module) => (
                  <Tag key={module.id} color={module.enabled ? 'green' : 'default'}>
                    {module.id}
                  </Tag>
                ))}
              </Descriptions.Item>
            </Descriptions>
          </Card>
          <FooterSettingsPanel />
        </>
      ) : (
        <AccessRestricted
          action="manage organisation settings"
          permission={EDIT_SETTINGS}
          user={session.user.email}
          organisation={session.tenant.name}
        />
      )}
    </div>
  );
}
