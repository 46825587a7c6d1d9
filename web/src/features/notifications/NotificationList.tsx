import { CheckOutlined } from '@ant-design/icons';
import type { NotificationView } from '@workspace/notification/contract';
import { Badge, Button, Empty, List, Space, Typography, theme as antdTheme } from 'antd';
import { useNavigate } from 'react-router';
import { useToast } from '../../ui/feedback';
import { ukDateTime } from '../../ui/format';
import { useMarkAllNotificationsReadMutation, useMarkNotificationReadMutation } from './notificationsApi';

/** Paths another entry of the app serves (a share's own page): a full page load, not the staff app's router. */
const OTHER_ENTRIES = ['/share/'];

export interface NotificationListProps {
  items: NotificationView[];
  unreadCount: number;
  loading?: boolean;
  /** Called once a notification's link is followed (e.g. to close the bell's panel). */
  onFollow?: () => void;
  footer?: React.ReactNode;
}

/**
 * The notifications with their subject and time (UK format), unread ones marked; a click marks one read and follows
 * its link; Mark all as read.
 */
export function NotificationList({ items, unreadCount, loading, onFollow, footer }: NotificationListProps) {
  const navigate = useNavigate();
  const toast = useToast();
  const { token } = antdTheme.useToken();
  const [markRead] = useMarkNotificationReadMutation();
  const [markAll, markingAll] = useMarkAllNotificationsReadMutation();
  const follow = (item: NotificationView) => {
    if (!item.read) void markRead(item.id);
    onFollow?.();
    if (OTHER_ENTRIES.some((prefix) => item.link.startsWith(prefix))) window.location.assign(item.link);
    else void navigate(item.link);
  };
  return (
    <div data-testid="notification-list">
      <Space style={{ width: '100%', justifyContent: 'space-between', paddingBottom: 8 }}>
        <Typography.Text strong>Notifications</Typography.Text>
        <Button
          type="link"
          size="small"
          icon={<CheckOutlined />}
          disabled={unreadCount === 0}
          loading={markingAll.isLoading}
          onClick={() => {
            markAll(undefined)
              .unwrap()
              .catch(() => {
                toast.error('Your notifications could not be marked as read. Please try again.');
              });
          }}
        >
          Mark all as read
        </Button>
      </Space>
      <List
        loading={loading ?? false}
        dataSource={items}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No notifications" /> }}
        renderItem={(item) => (
          <List.Item
            key={item.id}
            data-testid="notification-item"
            data-read={item.read ? 'true' : 'false'}
            style={{
              cursor: 'pointer',
              paddingInline: 8,
              background: item.read ? undefined : token.colorPrimaryBg,
              borderRadius: token.borderRadius,
            }}
            onClick={() => {
              follow(item);
            }}
          >
            <List.Item.Meta
              avatar={<Badge status={item.read ? 'default' : 'processing'} />}
              title={
                <a
                  href={item.link}
                  onClick={(event) => {
                    event.preventDefault();
                  }}
                  style={{ fontWeight: item.read ? 'normal' : 600 }}
                >
                  {item.subject}
                </a>
              }
              description={<time dateTime={item.createdAt}>{ukDateTime(item.createdAt)}</time>}
            />
          </List.Item>
        )}
      />
      {footer}
    </div>
  );
}
