import { Typography } from 'antd';
import type { ReactNode } from 'react';
import type { Session } from '../../app/api';
import { AccessRestricted } from '../../ui/AccessRestricted';
import { SettingsTabs } from './SettingsTabs';

const EDIT_SETTINGS = 'tenant.edit_settings';

/** Whether the user may change the organisation's settings (tenant.edit_settings, or every scope). */
export function canEditSettings(session: Session): boolean {
  return session.scopes.includes(EDIT_SETTINGS) || session.scopes.includes('*');
}

/** A settings tab: the Settings title and the tabs above the tab's own content. */
export function SettingsPage({ children }: { children: ReactNode }) {
  return (
    <div>
      <Typography.Title level={2}>Settings</Typography.Title>
      <SettingsTabs />
      {children}
    </div>
  );
}

/** The organisation's settings for holders of tenant.edit_settings; the Access Restricted page for anyone else. */
export function EditSettingsOnly({
  session,
  action,
  children,
}: {
  session: Session;
  /** What the refused user tried to do ("change the organisation's logo"). */
  action: string;
  children: ReactNode;
}) {
  if (canEditSettings(session)) return children;
  return (
    <AccessRestricted
      action={action}
      permission={EDIT_SETTINGS}
      user={session.user.email}
      organisation={session.tenant.name}
    />
  );
}
