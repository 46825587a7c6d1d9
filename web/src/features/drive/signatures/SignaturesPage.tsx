import { EditOutlined } from '@ant-design/icons';
import { Button, Card, Empty, List, Skeleton, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useToast } from '../../../ui/feedback';
import { ukDate, ukDateTime } from '../../../ui/format';
import { errorMessage } from '../../../ui/problem';
import { SelectFromDrive } from '../dialogs/SelectFromDrive';
import { useDeclineTaskMutation, useSignatureTasksQuery } from './api';
import { RequestSignatureDialog } from './RequestSignatureDialog';
import { SignDialog } from './SignDialog';
import type { SignTask } from './types';

export const NO_PENDING = 'No pending signatures';
export const NO_SIGNED = 'No signed documents';

/**
 * /drive/signatures (drive.md §2): the signature requests waiting for the user, each signed by drawing, and the
 * documents the user has signed. `?request={fileId}&name={file name}` opens Request Signature for that PDF (the
 * file list's 'Request signature' action links here); Request Signature (above the lists) picks the PDF from the
 * drive (Select from Drive, PDFs only: only PDFs can be signed).
 */
export function SignaturesPage() {
  const toast = useToast();
  const pending = useSignatureTasksQuery({ status: 'pending', scope: 'assigned' });
  const signed = useSignatureTasksQuery({ status: 'signed', scope: 'assigned' });
  const [decline] = useDeclineTaskMutation();
  const [signing, setSigning] = useState<SignTask | null>(null);
  const [picking, setPicking] = useState(false);
  const [params, setParams] = useSearchParams();
  const requestFor = params.get('request');
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
        <Button
          icon={<EditOutlined />}
          onClick={() => {
            setPicking(true);
          }}
        >
          Request Signature
        </Button>
      </Space>
      <Card title="Pending signatures" className="signatures-pending">
        {pending.isLoading ? (
          <Skeleton active />
        ) : (
          <List
            dataSource={pending.data?.items ?? []}
            locale={{ emptyText: <Empty description={NO_PENDING} /> }}
            renderItem={(task) => (
              <List.Item
                actions={[
                  <Button
                    key="sign"
                    type="primary"
                    onClick={() => {
                      setSigning(task);
                    }}
                  >
                    Sign
                  </Button>,
                  <Button
                    key="decline"
                    onClick={() => {
                      void decline({ taskId: task.id, reason: '' })
                        .unwrap()
                        .then(() => {
                          toast.info('Signature request declined');
                        })
                        .catch((error: unknown) => {
                          toast.error(errorMessage(error, 'Failed to decline'));
                        });
                    }}
                  >
                    Decline
                  </Button>,
                ]}
              >
                <List.Item.Meta
                  title={task.fileName}
                  description={`Requested by ${task.createdByName} on ${ukDate(task.createdAt)}`}
                />
                <Tag color="gold">pending</Tag>
              </List.Item>
            )}
          />
        )}
      </Card>
      <Card title="Signed documents" className="signatures-signed">
        {signed.isLoading ? (
          <Skeleton active />
        ) : (
          <List
            dataSource={signed.data?.items ?? []}
            locale={{ emptyText: <Empty description={NO_SIGNED} /> }}
            renderItem={(task) => (
              <List.Item>
                <List.Item.Meta
                  title={task.fileName}
                  description={
                    <Typography.Text type="secondary">
                      Signed {task.signedAt ? ukDateTime(task.signedAt) : ''}
                      {task.signedVersion ? ` · version ${String(task.signedVersion)}` : ''}
                    </Typography.Text>
                  }
                />
                <Tag color="green">signed</Tag>
              </List.Item>
            )}
          />
        )}
      </Card>
      {requestFor && (
        <RequestSignatureDialog
          open
          file={{ id: requestFor, name: params.get('name') ?? '' }}
          onClose={() => {
            setParams({}, { replace: true });
          }}
        />
      )}
      {picking && (
        <SelectFromDrive
          title="Select a PDF to sign"
          accept={(file) => file.typeClass === 'pdf'}
          onClose={() => {
            setPicking(false);
          }}
          onSelect={([file]) => {
            setPicking(false);
            if (file) setParams({ request: file.id, name: file.name });
          }}
        />
      )}
      {signing && (
        <SignDialog
          task={signing}
          onClose={() => {
            setSigning(null);
          }}
        />
      )}
    </Space>
  );
}
