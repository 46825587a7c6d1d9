import { Card, Col, List, Progress, Row, Skeleton, Space, Statistic, Typography } from 'antd';
import { DASHBOARD_RECENT_FILES } from '@workspace/drive/domain';
import { Link } from 'react-router';
import { ukDate } from '../../../ui/format';
import { useDrivesQuery, useFilesQuery, useStorageQuery } from '../api/driveApi';
import { useDrive } from '../context';
import { EmptyState } from '../list/EmptyState';
import { formatBytes } from '../list/format';
import { TypeIcon } from '../list/TypeIcon';
import { DriveToolbar } from '../toolbar/DriveToolbar';

/** /drive/overview: the default drive page: storage, drives, the 10 most recent files, and Browse. */
export function Overview() {
  const { openPreview } = useDrive();
  const storage = useStorageQuery(undefined);
  const drives = useDrivesQuery(undefined);
  const recent = useFilesQuery({ view: 'recent', page: 1, pageSize: DASHBOARD_RECENT_FILES });
  const used = storage.data?.used ?? 0;
  const cap = storage.data?.cap ?? 0;
  return (
    <div data-testid="drive-page-overview">
      <DriveToolbar title="Dashboard Overview" actions={<Link to="/drive/folders">Browse</Link>} />
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12} lg={8}>
          <Card title="Storage" size="small" loading={storage.isLoading}>
            <Progress percent={cap > 0 ? Math.round((used * 100) / cap) : 0} />
            <Typography.Text type="secondary">
              {formatBytes(used)} of {formatBytes(cap)} used
            </Typography.Text>
          </Card>
        </Col>
        <Col xs={12} md={6} lg={4}>
          <Card size="small">
            <Statistic title="Drives" value={drives.data?.drives.length ?? 0} loading={drives.isLoading} />
          </Card>
        </Col>
        <Col xs={12} md={6} lg={4}>
          <Card size="small">
            <Statistic title="Files" value={storage.data?.fileCount ?? 0} loading={storage.isLoading} />
          </Card>
        </Col>
      </Row>
      <Card
        title="Recent files"
        size="small"
        style={{ marginTop: 16 }}
        extra={<Link to="/drive/recent">See all</Link>}
      >
        {recent.isLoading ? (
          <Skeleton active />
        ) : (recent.data?.items.length ?? 0) === 0 ? (
          <EmptyState kind="no-recent" />
        ) : (
          <List
            data-testid="recent-files"
            size="small"
            dataSource={recent.data?.items ?? []}
            renderItem={(file) => (
              <List.Item extra={<Typography.Text type="secondary">{ukDate(file.createdAt)}</Typography.Text>}>
                <Space>
                  <TypeIcon typeClass={file.typeClass} />
                  <Typography.Link
                    onClick={() => {
                      openPreview(file);
                    }}
                  >
                    {file.name}
                  </Typography.Link>
                  <Typography.Text type="secondary">{formatBytes(file.size)}</Typography.Text>
                </Space>
              </List.Item>
            )}
          />
        )}
      </Card>
    </div>
  );
}
