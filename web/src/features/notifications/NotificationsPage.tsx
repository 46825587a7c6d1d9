import { Alert, Button, Card } from 'antd';
import type { NotificationView } from '@workspace/notification/contract';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../ui/problem';
import { NotificationList } from './NotificationList';
import { useLazyNotificationsQuery, useNotificationsQuery } from './notificationsApi';

const PAGE = 20;

/** /notifications: every notification of the user, newest first, older ones a page at a time. */
export function NotificationsPage() {
  const first = useNotificationsQuery({ limit: PAGE });
  const [loadOlder, older] = useLazyNotificationsQuery();
  const [more, setMore] = useState<NotificationView[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  // A refetch of the first page (a new one came, or some were read) starts the older pages again.
  useEffect(() => {
    setMore([]);
    setCursor(first.data?.nextCursor ?? null);
  }, [first.data]);
  if (first.error)
    return (
      <Alert
        type="error"
        showIcon
        title={`Error loading notifications: ${errorMessage(first.error)}`}
        data-testid="load-error"
      />
    );
  const items = [...(first.data?.items ?? []), ...more];
  return (
    <Card data-testid="notifications-page">
      <NotificationList
        items={items}
        unreadCount={first.data?.unreadCount ?? 0}
        loading={first.isLoading}
        footer={
          cursor ? (
            <Button
              block
              loading={older.isFetching}
              onClick={() => {
                void loadOlder({ limit: PAGE, cursor }).then(({ data }) => {
                  if (!data) return;
                  setMore((shown) => [...shown, ...data.items]);
                  setCursor(data.nextCursor);
                });
              }}
            >
              Show older
            </Button>
          ) : null
        }
      />
    </Card>
  );
}
