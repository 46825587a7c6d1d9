import { DatabaseOutlined } from '@ant-design/icons';
import { Card, Col, Row, Space, Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import type { Drive } from '../api/types';
import { formatBytes } from '../list/format';

const DRIVE_HEX: Record<string, string> = {
  blue: '#3B82F6',
  green: '#10B981',
  purple: '#8B5CF6',
  orange: '#F97316',
  red: '#EF4444',
  gray: '#6B7280',
};

/** Drives as cards; a click opens the drive. */
export function DriveCards({ drives }: { drives: Drive[] }) {
  const navigate = useNavigate();
  return (
    <Row gutter={[12, 12]} style={{ marginBottom: 16 }} data-testid="drive-cards">
      {drives.map((drive) => (
        <Col key={drive.id} xs={24} sm={12} lg={8}>
          <Card
            size="small"
            hoverable
            onClick={() => void navigate(`/drive/${drive.id}`)}
            data-testid="drive-card"
          >
            <Space align="start">
              <DatabaseOutlined
                style={{ fontSize: 24, color: DRIVE_HEX[drive.settings.color] ?? DRIVE_HEX.blue }}
              />
              <div>
                <Typography.Text strong>{drive.name}</Typography.Text> <Tag>{drive.type}</Tag>
                <br />
                <Typography.Text type="secondary">
                  {drive.stats.fileCount} files · {formatBytes(drive.stats.totalSize)} of{' '}
                  {drive.settings.quotaGB} GB
                </Typography.Text>
              </div>
            </Space>
          </Card>
        </Col>
      ))}
    </Row>
  );
}
