import { Form, Input, InputNumber, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { errorMessage } from '../../../ui/problem';
import { useToast } from '../../../ui/feedback';
import { useCreateDriveMutation, usePeopleQuery, useStorageQuery } from '../api/driveApi';
import { useDrive } from '../context';
import { createQuotaError, DRIVE_QUOTA_MIN_GB, remainingCapacityGB } from '@workspace/drive/domain';
import { DriveRestricted } from './Restricted';

/**
 * Create Shared Drive: name, people to add (they become contributors; the creator is the owner), quota from 1 GB up
 * to the remaining capacity (at least 1): the input caps at it, and a figure typed above it is named with the spec's
 * message until the input leaves (then it is the capacity). Without the create-drives capability the Access
 * Restricted panel (drive.drives.create) shows instead.
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
  const maxQuota = Math.max(DRIVE_QUOTA_MIN_GB, capacity);
  const [chosen, setQuota] = useState<number>(10);
  // Kept within the capacity as it becomes known (storage loaded, or another upload since).
  const quota = Math.min(chosen, maxQuota);
  // What is being typed, before the input settles (it takes only figures within 1..maxQuota).
  const [typed, setTyped] = useState<number | undefined>(undefined);
  const quotaError = createQuotaError(typed ?? quota, capacity);

  if (!abilities.canCreateDrives)
    return (
      <Modal open title="Create Shared Drive" footer={null} onCancel={onClose} width={640}>
        <DriveRestricted scope="drive.drives.create" testId="create-drive-denied" />
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
            min={DRIVE_QUOTA_MIN_GB}
            max={maxQuota}
            precision={0}
            value={quota}
            onInput={(text) => {
              setTyped(text.trim() === '' ? undefined : Number(text));
            }}
            onChange={(value) => {
              setQuota(value ?? DRIVE_QUOTA_MIN_GB);
            }}
            onBlur={() => {
              setTyped(undefined);
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
