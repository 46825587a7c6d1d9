import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Popover } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { NotificationList } from '../notifications/NotificationList';
import { useNotificationsQuery } from '../notifications/notificationsApi';
import { useNotificationStream } from '../notifications/useNotificationStream';

/** The latest notifications the bell's panel shows; the rest on /notifications. */
const LATEST = 10;

/**
 * The bell in the header: the unread count (live, from the notifications stream), and a panel with the latest
 * notifications, Mark all as read and View all.
 */
export function NotificationBell({ uid, compact }: { uid: string; compact: boolean }) {
  useNotificationStream(uid);
  const latest = useNotificationsQuery({ limit: LATEST });
  const [open, setOpen] = useState(false);
  const unread = latest.data?.unreadCount ?? 0;
  const label = unread === 0 ? 'Notifications' : `Notifications, ${unread} unread`;
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="bottomRight"
      destroyOnHidden
      content={
        <div style={{ width: compact ? 'calc(100vw - 32px)' : 380, maxHeight: '70vh', overflowY: 'auto' }}>
          <NotificationList
            items={latest.data?.items ?? []}
            unreadCount={unread}
            loading={latest.isLoading}
            onFollow={() => {
              setOpen(false);
            }}
            footer={
              <div style={{ textAlign: 'center', paddingTop: 8 }}>
                <Link
                  to="/notifications"
                  onClick={() => {
                    setOpen(false);
                  }}
                >
                  View all
                </Link>
              </div>
            }
          />
        </div>
      }
    >
      <Button type="text" aria-label={label} title={label} data-testid="notification-bell">
        <Badge count={unread} size="small" overflowCount={99} data-testid="notification-count">
          <BellOutlined style={{ fontSize: 18 }} />
        </Badge>
      </Button>
    </Popover>
  );
}
