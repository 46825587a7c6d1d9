import { Alert, Modal, Typography } from 'antd';
import { deleteText, ownedSelection, TRASH_TEXTS } from '@workspace/drive/domain';
import { useState } from 'react';
import { errorMessage } from '../../../ui/problem';
import { useToast } from '../../../ui/feedback';
import { useDeleteFileMutation, usePurgeFileMutation } from '../api/driveApi';
import type { DriveFile } from '../api/types';
import { useDrive } from '../context';

/**
 * The delete dialog: only the user's own files are deleted (the others stay, and with none of theirs nothing can
 * be); from the trash it deletes for good (irreversible), elsewhere it moves files to the trash. One call per file,
 * one after another.
 */
export function DeleteDialog({
  files,
  permanent,
  onClose,
}: {
  files: DriveFile[];
  permanent: boolean;
  onClose: (deleted: boolean) => void;
}) {
  const { session } = useDrive();
  const toast = useToast();
  const [deleteFile] = useDeleteFileMutation();
  const [purgeFile] = usePurgeFileMutation();
  const [busy, setBusy] = useState(false);
  const { owned, others } = ownedSelection(
    files.map((file) => ({ ...file, createdBy: file.ownerId })),
    session.user.uid,
  );

  const run = async () => {
    setBusy(true);
    let failed = 0;
    let lastError = '';
    for (const file of owned) {
      try {
        if (permanent) await purgeFile({ fileId: file.id }).unwrap();
        else await deleteFile({ tenantId: session.tenant.id, fileId: file.id }).unwrap();
      } catch (error) {
        failed++;
        lastError = errorMessage(error, TRASH_TEXTS.failed);
      }
    }
    setBusy(false);
    // 'Failed to delete file', with the service's reason (its message, or DELETE_FAILED) after it.
    const failure = lastError === TRASH_TEXTS.failed ? lastError : `${TRASH_TEXTS.failed}: ${lastError}`;
    if (failed === owned.length) {
      toast.error(failure);
      onClose(false);
      return;
    }
    if (failed > 0) toast.error(failure);
    toast.success(deleteText(permanent, owned.length - failed));
    onClose(true);
  };

  return (
    <Modal
      open
      title={permanent ? 'Delete permanently?' : 'Move to trash?'}
      okText={permanent ? 'Delete Forever' : 'Delete'}
      okButtonProps={{ danger: true, disabled: owned.length === 0, loading: busy }}
      onOk={() => void run()}
      onCancel={() => {
        onClose(false);
      }}
    >
      {owned.length === 0 ? (
        <Alert type="warning" showIcon title={TRASH_TEXTS.noOwned} />
      ) : (
        <>
          <Typography.Paragraph>
            {permanent
              ? `${owned.length} file(s) will be deleted permanently.`
              : `${owned.length} file(s) will be moved to the trash.`}
          </Typography.Paragraph>
          {permanent && (
            <Alert
              type="error"
              showIcon
              title="This action cannot be undone. The files cannot be recovered."
            />
          )}
          {others.length > 0 && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
              {others.length} selected file(s) belong to others and will not be deleted.
            </Typography.Paragraph>
          )}
        </>
      )}
    </Modal>
  );
}
