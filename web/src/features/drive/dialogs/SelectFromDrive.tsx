import { Button, List, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useFilesQuery } from '../api/driveApi';
import type { DriveFile } from '../api/types';
import { formatBytes } from '../list/format';
import { TypeIcon } from '../list/TypeIcon';

/**
 * The Select from Drive picker (drive.md §2): Select is disabled until a file is chosen; one file unless `multiple`
 * (a second click then replaces the first). `accept` keeps the files the caller can use (the signatures page: PDFs).
 */
export function SelectFromDrive({
  multiple = false,
  accept,
  title = 'Select from Drive',
  onSelect,
  onClose,
}: {
  multiple?: boolean;
  accept?: (file: DriveFile) => boolean;
  title?: string;
  onSelect: (files: DriveFile[]) => void;
  onClose: () => void;
}) {
  const files = useFilesQuery({ view: 'all', sort: 'createdAt', order: 'desc', page: 1 });
  const offered = (files.data?.items ?? []).filter((file) => !accept || accept(file));
  const [chosen, setChosen] = useState<DriveFile[]>([]);
  const toggle = (file: DriveFile) => {
    const already = chosen.some((item) => item.id === file.id);
    if (multiple) setChosen(already ? chosen.filter((item) => item.id !== file.id) : [...chosen, file]);
    else setChosen(already ? [] : [file]);
  };
  return (
    <Modal
      open
      title={title}
      className="drive-select-from-drive"
      onCancel={onClose}
      footer={
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="primary"
            disabled={chosen.length === 0}
            onClick={() => {
              onSelect(chosen);
            }}
          >
            Select
          </Button>
        </Space>
      }
    >
      <List
        loading={files.isLoading}
        dataSource={offered}
        locale={{ emptyText: 'No files found' }}
        renderItem={(file) => {
          const on = chosen.some((item) => item.id === file.id);
          return (
            <List.Item
              onClick={() => {
                toggle(file);
              }}
              aria-selected={on}
              style={{ cursor: 'pointer', background: on ? 'rgba(22, 119, 255, 0.08)' : undefined }}
            >
              <Space>
                <TypeIcon typeClass={file.typeClass} />
                <Typography.Text strong={on}>{file.name}</Typography.Text>
                <Typography.Text type="secondary">{formatBytes(file.size)}</Typography.Text>
              </Space>
            </List.Item>
          );
        }}
      />
    </Modal>
  );
}
