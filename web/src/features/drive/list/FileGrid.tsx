import { Card, Checkbox, Col, Pagination, Row, Space, Typography } from 'antd';
import type { DriveFile } from '../api/types';
import { useDrive } from '../context';
import { formatBytes } from './format';
import { NeedsRepair } from './FileTable';
import type { ListState } from './listState';
import { selectAllState } from './listState';
import { TypeIcon } from './TypeIcon';

export interface FileGridProps {
  files: DriveFile[];
  total: number;
  state: ListState;
  selected: string[];
  onSelect: (ids: string[]) => void;
  onPage: (page: number, pageSize: number) => void;
}

/** The grid view: a card per file with its checkbox, type icon, name (opens the preview), badge and size. */
export function FileGrid(props: FileGridProps) {
  const { openPreview } = useDrive();
  const chosen = new Set(props.selected);
  const all = selectAllState(props.files.filter((file) => chosen.has(file.id)).length, props.files.length);
  const toggle = (id: string, on: boolean) => {
    props.onSelect(on ? [...props.selected, id] : props.selected.filter((item) => item !== id));
  };
  return (
    <div data-testid="file-grid">
      <Checkbox
        style={{ marginBottom: 12 }}
        checked={all.checked}
        indeterminate={all.indeterminate}
        onChange={(event) => {
          props.onSelect(event.target.checked ? props.files.map((file) => file.id) : []);
        }}
      >
        Select all
      </Checkbox>
      <Row gutter={[12, 12]}>
        {props.files.map((file) => (
          <Col key={file.id} xs={12} sm={8} md={6} xl={4}>
            <Card size="small" data-testid="file-card" hoverable>
              <Space orientation="vertical" size={4} style={{ width: '100%' }}>
                <Space style={{ justifyContent: 'space-between', width: '100%' }}>
                  <Checkbox
                    aria-label={`Select ${file.name}`}
                    checked={chosen.has(file.id)}
                    onChange={(event) => {
                      toggle(file.id, event.target.checked);
                    }}
                  />
                  <TypeIcon typeClass={file.typeClass} size={28} />
                </Space>
                <Typography.Link
                  ellipsis
                  onClick={() => {
                    openPreview(file);
                  }}
                  style={{ display: 'block', width: '100%' }}
                  title={file.name}
                >
                  {file.name}
                </Typography.Link>
                {file.orphanedRef && <NeedsRepair />}
                <Typography.Text type="secondary">{formatBytes(file.size)}</Typography.Text>
              </Space>
            </Card>
          </Col>
        ))}
      </Row>
      <Pagination
        style={{ marginTop: 16, textAlign: 'right' }}
        current={props.state.page}
        pageSize={props.state.pageSize}
        total={props.total}
        showSizeChanger
        pageSizeOptions={[25, 50, 100, 200]}
        onChange={props.onPage}
        hideOnSinglePage
      />
    </div>
  );
}
