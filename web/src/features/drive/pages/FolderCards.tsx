import { FolderFilled } from '@ant-design/icons';
import { Card, Col, Row, Space, theme, Typography } from 'antd';
import type { Folder } from '../api/types';
import { folderHex } from '../dialogs/folderRules';
import { formatBytes } from '../list/format';

/** The folders of one level, as cards. */
export function FolderCards({ folders, onOpen }: { folders: Folder[]; onOpen: (folder: Folder) => void }) {
  const { token } = theme.useToken();
  return (
    <Row gutter={[12, 12]} style={{ marginBottom: 16 }} data-testid="folder-cards">
      {folders.map((folder) => (
        <Col key={folder.id} xs={12} sm={8} md={6} xl={4}>
          <Card
            size="small"
            hoverable
            onClick={() => {
              onOpen(folder);
            }}
            data-testid="folder-card"
          >
            <Space>
              <FolderFilled style={{ fontSize: 24, color: folderHex(folder.color, token.colorPrimary) }} />
              <div>
                <Typography.Text strong>{folder.name}</Typography.Text>
                <br />
                <Typography.Text type="secondary">
                  {folder.fileCount} files · {formatBytes(folder.totalSize)}
                </Typography.Text>
              </div>
            </Space>
          </Card>
        </Col>
      ))}
    </Row>
  );
}
