import { Button, List, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useFilesQuery } from '../api/driveApi';
import type { DriveFile } from '../api/types';
import { formatBytes } from '../list/format';
import { TypeIcon } from '../list/TypeIcon';

/** The Select from Drive picker: Select is disabled until a file is chosen; one file unless `multiple`. */
export function SelectFromDrive({
  multiple = false,
  onSelect,
  onClose,
}: {
  multiple?: boolean;
  onSelect: (files: DriveFile[]) => void;
  onClose: () => void;
}) {
  const files = useFilesQuery({ view: 'all', sort: 'createdAt', order: 'desc', page: 1 });
  const [chosen, setChosen] = useState<DriveFile[]>([]);
  const toggle = (file: DriveFile) => {
    const already = chosen.some((item) => item.id === file.id);
    if (multiple) setChosen(already ? chosen.filter((item) => item.id !== file.id) : [...chosen, file]);
    else setChosen(already ? [] : [file]);
  };
  return (
    <Modal
      open
      title="Select from Drive"
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
        dataSource={files.data?.items ?? []}
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
