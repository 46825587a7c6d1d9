import { Tabs } from 'antd';
import { useLocation, useNavigate } from 'react-router';

export function SettingsTabs() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <Tabs
      activeKey={location.pathname}
      onChange={(key) => void navigate(key)}
      items={[
        { key: '/settings/appearance', label: 'Appearance' },
        { key: '/settings/organisation', label: 'Organisation' },
        { key: '/settings/colours', label: 'Colours' },
        { key: '/settings/logo', label: 'Logo' },
      ]}
    />
  );
}
