import { Card, Descriptions, Tag } from 'antd';
import type { Session } from '../../app/api';
import { FooterSettingsPanel } from './FooterSettingsPanel';
import { EditSettingsOnly, SettingsPage } from './SettingsPage';

/** Organisation settings are for holders of tenant.edit_settings; others meet the Access Restricted page. */
export function OrganisationSettings({ session }: { session: Session }) {
  return (
    <SettingsPage>
      <EditSettingsOnly session={session} action="manage organisation settings">
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
      </EditSettingsOnly>
    </SettingsPage>
  );
}
