import { Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { errorMessage } from '../../../ui/problem';
import { useToast } from '../../../ui/feedback';
import { useCreateLibraryMutation } from '../api/driveApi';
import type { Drive } from '../api/types';

/** New Library: a drive the user owns or belongs to (not a personal one), a name and a description. */
export function NewLibrary({
  drives,
  driveId,
  onClose,
}: {
  drives: Drive[];
  driveId?: string;
  onClose: () => void;
}) {
  const toast = useToast();
  const [create, { isLoading }] = useCreateLibraryMutation();
  const [drive, setDrive] = useState<string | undefined>(driveId ?? drives[0]?.id);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const submit = async () => {
    if (!drive) return;
    try {
      await create({ driveId: drive, name: name.trim(), description: description.trim() }).unwrap();
      toast.success('Library created');
      onClose();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to create library'));
    }
  };
  return (
    <Modal
      open
      title="New Library"
      okText="Create"
      okButtonProps={{ disabled: !drive || !name.trim(), loading: isLoading }}
      onOk={() => void submit()}
      onCancel={onClose}
    >
      <Form layout="vertical">
        <Form.Item label="Drive" required>
          <Select
            aria-label="Drive"
            value={drive}
            onChange={setDrive}
            options={drives.map((item) => ({ value: item.id, label: item.name }))}
          />
        </Form.Item>
        <Form.Item label="Name" required>
          <Input
            aria-label="Name"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
            }}
          />
        </Form.Item>
        <Form.Item label="Description">
          <Input.TextArea
            aria-label="Description"
            value={description}
            onChange={(event) => {
              setDescription(event.target.value);
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
