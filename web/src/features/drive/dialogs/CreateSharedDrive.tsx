import { LockOutlined } from '@ant-design/icons';
import { Form, Input, InputNumber, Modal, Result, Select, Typography } from 'antd';
import { useState } from 'react';
import { errorMessage } from '../../../ui/problem';
import { useToast } from '../../../ui/feedback';
import { useCreateDriveMutation, usePeopleQuery, useStorageQuery } from '../api/driveApi';
import { useDrive } from '../context';
import { createQuotaError, remainingCapacityGB } from '@workspace/drive/domain';

/**
 * Create Shared Drive: name, people to add (they become contributors; the creator is the owner), quota up to the
 * remaining capacity. Without the create-drives capability a permission-denied panel shows instead.
 */
export function CreateSharedDrive({ onClose }: { onClose: () => void }) {
  const { abilities, session } = useDrive();
  const toast = useToast();
  const storage = useStorageQuery(undefined);
  const people = usePeopleQuery(undefined, { skip: !abilities.canCreateDrives });
  const [create, { isLoading }] = useCreateDriveMutation();
  const [name, setName] = useState('');
  const [memberIds, setMemberIds] = useState<string[]>([]);
  // The capacity check failing (no storage figures) gives the spec's fallback of 5 GB.
  const capacity = storage.isError
    ? remainingCapacityGB(undefined, 0)
    : remainingCapacityGB(storage.data?.cap, storage.data?.used ?? 0);
  const [quota, setQuota] = useState<number>(Math.min(10, Math.max(1, capacity)));
  const quotaError = createQuotaError(quota, capacity);

  if (!abilities.canCreateDrives)
    return (
      <Modal open title="Create Shared Drive" footer={null} onCancel={onClose}>
        <div data-testid="create-drive-denied">
          <Result
            status="403"
            icon={<LockOutlined />}
            title="Permission denied"
            subTitle="You don't have permission to create shared drives."
          />
        </div>
      </Modal>
    );

  const submit = async () => {
    try {
      await create({
        drive: { name: name.trim(), type: 'shared', memberIds, settings: { quotaGB: quota } },
      }).unwrap();
      toast.success('Shared drive created');
      onClose();
    } catch (error) {
      toast.error(`Failed to create shared drive: ${errorMessage(error)}`);
    }
  };

  return (
    <Modal
      open
      title="Create Shared Drive"
      okText="Create"
      okButtonProps={{ disabled: !name.trim() || isLoading || !!quotaError, loading: isLoading }}
      onOk={() => void submit()}
      onCancel={onClose}
    >
      <Form layout="vertical">
        <Form.Item label="Name" required>
          <Input
            aria-label="Name"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
            }}
            autoFocus
          />
        </Form.Item>
        <Form.Item label="People to add">
          <Select
            aria-label="People to add"
            mode="multiple"
            value={memberIds}
            onChange={setMemberIds}
            showSearch={{ optionFilterProp: 'label' }}
            options={(people.data?.items ?? [])
              .filter((person) => person.uid !== session.user.uid)
              .map((person) => ({
                value: person.uid,
                label: `${person.displayName || person.fullName} (${person.email})`,
              }))}
          />
        </Form.Item>
        <Form.Item
          label="Quota (GB)"
          validateStatus={quotaError ? 'error' : undefined}
          help={quotaError ?? <Typography.Text type="secondary">{capacity} GB available</Typography.Text>}
        >
          <InputNumber
            aria-label="Quota (GB)"
            min={1}
            value={quota}
            onChange={(value) => {
              setQuota(value ?? 1);
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
