import { Modal, Typography } from 'antd';
import { useState } from 'react';
import { useToast } from '../../../ui/feedback';
import { errorMessage } from '../../../ui/problem';
import { useSignTaskMutation } from './api';
import { SignaturePad } from './SignaturePad';
import type { SignTask } from './types';

export const STAMP_FAILED = 'Failed to stamp PDF';

/** Sign a requested PDF by drawing: the drawing is stored as an image and stamped into a new version of the PDF. */
export function SignDialog({ task, onClose }: { task: SignTask; onClose: () => void }) {
  const toast = useToast();
  const [png, setPng] = useState<string | null>(null);
  const [sign, { isLoading }] = useSignTaskMutation();
  return (
    <Modal
      open
      title="Sign PDF"
      okText="Sign"
      // A stroke that strays past the pad must not close the dialog and lose the drawing: Cancel or Escape close it.
      mask={{ closable: false }}
      okButtonProps={{ disabled: png === null }}
      confirmLoading={isLoading}
      onCancel={onClose}
      onOk={() => {
        if (!png) return;
        void sign({ taskId: task.id, signature: png })
          .unwrap()
          .then((answer) => {
            toast.success(answer.message);
            onClose();
          })
          .catch((error: unknown) => {
            toast.error(errorMessage(error, STAMP_FAILED));
          });
      }}
    >
      <Typography.Paragraph>
        Draw your signature for <Typography.Text strong>{task.fileName}</Typography.Text>, requested by{' '}
        {task.createdByName}.
      </Typography.Paragraph>
      <SignaturePad onChange={setPng} />
    </Modal>
  );
}
