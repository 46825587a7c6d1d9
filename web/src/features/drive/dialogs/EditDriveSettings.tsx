import { Form, Input, InputNumber, Modal, Radio } from 'antd';
import {
  DEFAULT_DRIVE_SETTINGS,
  DRIVE_MESSAGES,
  driveName,
  editQuotaError,
  DRIVE_COLOURS,
  DRIVE_QUOTA_MAX_GB,
  DRIVE_QUOTA_MIN_GB,
  EDIT_FORM_DEFAULT_QUOTA_GB,
  type DriveColour,
} from '@workspace/drive/domain';
import { useState } from 'react';
import { useToast } from '../../../ui/feedback';
import { useUpdateDriveMutation } from '../api/driveApi';
import type { Drive } from '../api/types';

/** Edit Drive Settings: name (required), description, colour, quota 1..1000 GB (10 when the drive has none). */
export function EditDriveSettings({ drive, onClose }: { drive: Drive; onClose: () => void }) {
  const toast = useToast();
  const [update, { isLoading }] = useUpdateDriveMutation();
  const [name, setName] = useState(drive.name);
  const [description, setDescription] = useState(drive.settings.description);
  const [color, setColor] = useState<DriveColour>(
    (DRIVE_COLOURS as readonly string[]).includes(drive.settings.color)
      ? (drive.settings.color as DriveColour)
      : DEFAULT_DRIVE_SETTINGS.color,
  );
  const [quota, setQuota] = useState<number>(drive.settings.quotaGB || EDIT_FORM_DEFAULT_QUOTA_GB);
  const [touched, setTouched] = useState(false);
  const errors = {
    name: driveName(name) ? undefined : DRIVE_MESSAGES.nameRequired,
    quota: editQuotaError(quota),
  };

  const save = async () => {
    setTouched(true);
    if (errors.name || errors.quota) return;
    try {
      await update({
        driveId: drive.id,
        updates: { name: name.trim(), settings: { description: description.trim(), color, quotaGB: quota } },
      }).unwrap();
      toast.success('Drive updated successfully');
      onClose();
    } catch {
      toast.error('Failed to update drive');
    }
  };

  return (
    <Modal
      open
      title="Edit Drive Settings"
      okText="Save"
      onOk={() => void save()}
      onCancel={onClose}
      confirmLoading={isLoading}
    >
      <Form layout="vertical">
        <Form.Item
          label="Name"
          required
          validateStatus={touched && errors.name ? 'error' : undefined}
          help={touched ? errors.name : undefined}
        >
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
            rows={3}
            value={description}
            onChange={(event) => {
              setDescription(event.target.value);
            }}
          />
        </Form.Item>
        <Form.Item label="Colour">
          <Radio.Group
            aria-label="Colour"
            value={color}
            onChange={(event) => {
              setColor(event.target.value as DriveColour);
            }}
            options={DRIVE_COLOURS.map((value) => ({ value, label: value }))}
          />
        </Form.Item>
        <Form.Item label="Quota (GB)" validateStatus={errors.quota ? 'error' : undefined} help={errors.quota}>
          <InputNumber
            aria-label="Quota (GB)"
            min={DRIVE_QUOTA_MIN_GB}
            max={DRIVE_QUOTA_MAX_GB}
            value={quota}
            onChange={(value) => {
              setQuota(value ?? 0);
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
