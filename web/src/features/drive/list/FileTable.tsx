import { DownloadOutlined, EditOutlined, ShareAltOutlined } from '@ant-design/icons';
import { Button, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType, SortOrder as AntSortOrder } from 'antd/es/table/interface';
import { ukDate } from '../../../ui/format';
import type { DriveFile, SortField } from '../api/types';
import { useDrive } from '../context';
import { sharedLabel } from '@workspace/drive/domain';
import { formatBytes, ownerLabel } from './format';
import { virtualised, type ListState } from './listState';
import { TypeIcon } from './TypeIcon';

export interface FileTableProps {
  files: DriveFile[];
  total: number;
  state: ListState;
  /** Inside one drive: the Drive column is hidden. */
  insideDrive: boolean;
  selected: string[];
  onSelect: (ids: string[]) => void;
  onSort: (field: SortField) => void;
  onPage: (page: number, pageSize: number) => void;
  onDownload: (file: DriveFile) => void;
  loading: boolean;
}

/** The virtualised body's height in px (about 12 rows in view), and its least width (the columns share the rest). */
const VIRTUAL_BODY_HEIGHT = 600;
const VIRTUAL_MIN_WIDTH = 1000;

export const NeedsRepair = () => (
  <Tag color="warning" data-testid="needs-repair">
    Needs repair
  </Tag>
);

/** The list view: select, Name, Drive, Library, Folder, Owner, Size, Shared, Created, Actions; server-sorted. */
export function FileTable(props: FileTableProps) {
  const { session, abilities, openPreview, openShare, requestSignature } = useDrive();
  const sortOrder = (field: SortField): AntSortOrder =>
    props.state.sort === field ? (props.state.direction === 'asc' ? 'ascend' : 'descend') : null;
  const sortable = (field: SortField) => ({
    sorter: true,
    sortOrder: sortOrder(field),
    sortDirections: ['ascend', 'descend', 'ascend'] as AntSortOrder[],
    onHeaderCell: () => ({
      onClick: () => {
        props.onSort(field);
      },
    }),
  });
  const columns: ColumnsType<DriveFile> = [
    {
      title: 'Name',
      key: 'name',
      ...sortable('name'),
      render: (_, file) => (
        <Space>
          <TypeIcon typeClass={file.typeClass} />
          <Typography.Link
            onClick={() => {
              openPreview(file);
            }}
          >
            {file.name}
          </Typography.Link>
          {file.orphanedRef && <NeedsRepair />}
        </Space>
      ),
    },
    ...(props.insideDrive
      ? []
      : [
          {
            title: 'Drive',
            key: 'driveName',
            ...sortable('drive'),
            render: (_: unknown, f: DriveFile) => f.driveName,
          },
        ]),
    {
      title: 'Library',
      key: 'libraryName',
      ...sortable('library'),
      render: (_, file) => file.libraryName,
    },
    {
      title: 'Folder',
      key: 'folderName',
      ...sortable('folder'),
      render: (_, file) => file.folderName ?? '—',
    },
    {
      title: 'Owner',
      key: 'ownerName',
      ...sortable('owner'),
      render: (_, file) => ownerLabel(file, session.user.uid),
    },
    { title: 'Size', key: 'size', ...sortable('size'), render: (_, file) => formatBytes(file.size) },
    { title: 'Shared', key: 'shared', ...sortable('shared'), render: (_, file) => sharedLabel(file) },
    {
      title: 'Created',
      key: 'createdAt',
      ...sortable('createdAt'),
      render: (_, file) => ukDate(file.createdAt),
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, file) => (
        <Space size={0}>
          <Tooltip title="Download">
            <Button
              type="text"
              icon={<DownloadOutlined />}
              aria-label={`Download ${file.name}`}
              onClick={() => {
                props.onDownload(file);
              }}
            />
          </Tooltip>
          {abilities.canShareFiles && openShare && file.status === 'active' && (
            <Tooltip title="Share">
              <Button
                type="text"
                icon={<ShareAltOutlined />}
                aria-label={`Share ${file.name}`}
                onClick={() => {
                  openShare(file);
                }}
              />
            </Tooltip>
          )}
          {abilities.canRequestSignatures &&
            requestSignature &&
            file.typeClass === 'pdf' &&
            file.status === 'active' && (
              <Tooltip title="Request signature">
                <Button
                  type="text"
                  icon={<EditOutlined />}
                  aria-label={`Request signature on ${file.name}`}
                  onClick={() => {
                    requestSignature(file);
                  }}
                />
              </Tooltip>
            )}
        </Space>
      ),
    },
  ];
  // Above the threshold only the rows in view are in the page (a fixed-height body; the virtual table needs
  // numeric widths).
  const virtual = virtualised(props.files.length);
  return (
    <Table<DriveFile>
      data-testid="file-table"
      data-virtual={virtual ? 'true' : 'false'}
      virtual={virtual}
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={props.files}
      loading={props.loading}
      showSorterTooltip={false}
      rowSelection={{
        columnWidth: 48,
        selectedRowKeys: props.selected,
        onChange: (keys) => {
          props.onSelect(keys.map(String));
        },
      }}
      pagination={{
        current: props.state.page,
        pageSize: props.state.pageSize,
        total: props.total,
        showSizeChanger: true,
        pageSizeOptions: [25, 50, 100, 200],
        onChange: props.onPage,
      }}
      scroll={virtual ? { x: VIRTUAL_MIN_WIDTH, y: VIRTUAL_BODY_HEIGHT } : { x: 'max-content' }}
    />
  );
}
