import { List, Modal, Typography } from 'antd';
import { useState } from 'react';
import { errorMessage } from '../../../ui/problem';
import { useToast } from '../../../ui/feedback';
import { useFolderAssignMutation, useFoldersQuery } from '../api/driveApi';

const NO_FOLDER = '— No folder —';

/** Move to folder: the drive's folders, '— No folder —' (the root) first; the folder counts refresh after. */
export function MoveToFolder({
  driveId,
  fileIds,
  onClose,
}: {
  driveId: string | undefined;
  fileIds: string[];
  onClose: () => void;
}) {
  const toast = useToast();
  const folders = useFoldersQuery({ driveId: driveId ?? '' }, { skip: !driveId });
  const [assign, { isLoading }] = useFolderAssignMutation();
  const [choice, setChoice] = useState<string | null | undefined>(undefined);
  const options = [{ id: null, name: NO_FOLDER }, ...(folders.data?.items ?? [])];

  const move = async () => {
    if (!driveId) {
      toast.error('Missing drive context for folder assignment');
      return;
    }
    try {
      await assign({ driveId, fileIds, toFolderId: choice ?? null }).unwrap();
      toast.success(fileIds.length > 1 ? 'Files moved successfully' : 'File moved successfully');
      onClose();
    } catch (error) {
      // The spec's texts; the service's reason goes to the console.
      // eslint-disable-next-line no-console -- the toast is the spec's text; the service's reason is logged
      console.error('folder-assign failed:', errorMessage(error));
      toast.error(fileIds.length > 1 ? 'Failed to move files. Please try again.' : 'Failed to move file');
    }
  };

  return (
    <Modal
      open
      title="Move to folder"
      okText="Move"
      okButtonProps={{ disabled: choice === undefined, loading: isLoading }}
      onOk={() => void move()}
      onCancel={onClose}
    >
      <List
        size="small"
        dataSource={options}
        renderItem={(folder) => (
          <List.Item
            onClick={() => {
              setChoice(folder.id);
            }}
            style={{
              cursor: 'pointer',
              background: choice === folder.id ? 'rgba(22, 119, 255, 0.08)' : undefined,
            }}
          >
            <Typography.Text strong={choice === folder.id}>{folder.name}</Typography.Text>
          </List.Item>
        )}
      />
    </Modal>
  );
}
