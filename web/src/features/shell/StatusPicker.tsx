import { LogoutOutlined } from '@ant-design/icons';
import { Dropdown, Space, Typography } from 'antd';
import { useState } from 'react';
import { useUpdateMeMutation } from '../../app/api';
import { useToast } from '../../ui/feedback';
import { statusStorageKey } from '../../ui/avatar';
import { statusColours, UserAvatar, type UserStatus } from '../../ui/UserAvatar';

/** Saves the status locally; a browser that refuses storage (private mode, quota) only loses the local copy. */
function saveLocalStatus(uid: string, status: UserStatus): void {
  try {
    localStorage.setItem(statusStorageKey(uid), status);
  } catch {
    // The remote save still carries the status.
  }
}

const labels: Record<UserStatus, string> = { active: 'Active', busy: 'Busy', unavailable: 'Unavailable' };

const SIGN_OUT_EVERYWHERE = 'sign-out-everywhere';

/**
 * The user menu on the avatar: the user's status, shown at once, saved locally (localStorage) and remotely (a failed
 * remote save puts the previous value back, in the picker and in the local copy); and, below it, 'Sign out of all
 * sessions' when `onSignOutEverywhere` is given.
 */
export function StatusPicker({
  uid,
  name,
  status,
  photoUrl,
  compact = false,
  onSignOutEverywhere,
}: {
  uid: string;
  name: string;
  status: UserStatus;
  photoUrl: string | null;
  /** At a phone's width only the avatar shows (the name is in the avatar's initials and its menu's label). */
  compact?: boolean;
  onSignOutEverywhere?: () => void;
}) {
  const [shown, setShown] = useState<UserStatus>(status);
  // A status changed elsewhere (another tab, live updates) replaces the one shown.
  const [saved, setSaved] = useState<UserStatus>(status);
  if (status !== saved) {
    setSaved(status);
    setShown(status);
  }
  const [updateMe] = useUpdateMeMutation();
  const toast = useToast();
  const choose = async (next: UserStatus) => {
    const previous = shown;
    setShown(next);
    saveLocalStatus(uid, next);
    try {
      await updateMe({ status: next }).unwrap();
    } catch {
      setShown(previous);
      saveLocalStatus(uid, previous);
      toast.error('Your status could not be saved.');
    }
  };
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectedKeys: [shown],
        items: [
          ...(Object.keys(labels) as UserStatus[]).map((key) => ({
            key,
            label: (
              <Space>
                <span
                  style={{
                    display: 'inline-block',
                    width: 8,
                    height: 8,
                    borderRadius: 4,
                    background: statusColours[key],
                  }}
                />
                {labels[key]}
              </Space>
            ),
          })),
          ...(onSignOutEverywhere
            ? [
                { type: 'divider' as const },
                {
                  key: SIGN_OUT_EVERYWHERE,
                  label: 'Sign out of all sessions',
                  icon: <LogoutOutlined />,
                  danger: true,
                },
              ]
            : []),
        ],
        onClick: ({ key }) => {
          if (key === SIGN_OUT_EVERYWHERE) onSignOutEverywhere?.();
          else void choose(key as UserStatus);
        },
      }}
    >
      <button
        type="button"
        aria-label={`Status: ${labels[shown]}`}
        style={{ background: 'none', border: 0, cursor: 'pointer', padding: 0 }}
      >
        <Space>
          <UserAvatar name={name} photoUrl={photoUrl} size="sm" status={shown} />
          {!compact && <Typography.Text style={{ whiteSpace: 'nowrap' }}>{name}</Typography.Text>}
        </Space>
      </button>
    </Dropdown>
  );
}
