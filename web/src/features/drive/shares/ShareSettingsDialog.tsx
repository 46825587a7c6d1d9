import { Checkbox, DatePicker, Form, Input, Modal, Radio } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useToast } from '../../../ui/feedback';
import { errorMessage } from '../../../ui/problem';
import { useShareSettingsMutation } from './api';
import { expiryTimestamp, splitAllowedUids } from '@workspace/drive/domain';
import type { Share, ShareVisibility } from './types';

export const SAVE_FAILED = 'Failed to save settings';

interface SettingsForm {
  visibility: ShareVisibility;
  allowedIds: string;
  allowDownload: boolean;
  watermark: boolean;
  expires: Dayjs | null;
  passcode: string;
}

/**
 * Share Settings (drive.md §2): visibility tenant, public or restricted (restricted: the allowed user ids, comma
 * separated), allow download, watermark, expiry (empty: none), and a passcode for the link (blank keeps the one set).
 */
export function ShareSettingsDialog({ share, onClose }: { share: Share; onClose: () => void }) {
  const toast = useToast();
  const [form] = Form.useForm<SettingsForm>();
  const [save, { isLoading }] = useShareSettingsMutation();
  const visibility: ShareVisibility = Form.useWatch('visibility', form);
  const submit = async (values: SettingsForm) => {
    try {
      await save({
        shareId: share.id,
        updates: {
          visibility: values.visibility,
          allowedUids: values.visibility === 'restricted' ? splitAllowedUids(values.allowedIds) : [],
          policy: {
            allowDownload: values.allowDownload,
            watermark: values.watermark,
            expiresAt: expiryTimestamp(values.expires ? values.expires.format('YYYY-MM-DD') : null),
          },
        },
        ...(values.passcode.trim() ? { passcode: values.passcode.trim() } : {}),
      }).unwrap();
      toast.success('Share settings saved');
      onClose();
    } catch (error) {
      // The server's message when it gave one (drive.md §8), else the spec's.
      toast.error(errorMessage(error, SAVE_FAILED));
    }
  };
  return (
    <Modal
      open
      title="Share Settings"
      okText="Save"
      confirmLoading={isLoading}
      onCancel={onClose}
      onOk={() => {
        form.submit();
      }}
      destroyOnHidden
    >
      <Form<SettingsForm>
        form={form}
        layout="vertical"
        initialValues={{
          visibility: share.visibility,
          allowedIds: share.allowedUids.join(', '),
          allowDownload: share.policy.allowDownload,
          watermark: share.policy.watermark,
          expires: share.policy.expiresAt ? dayjs(share.policy.expiresAt) : null,
          passcode: '',
        }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item label="Visibility" name="visibility">
          <Radio.Group
            options={[
              { label: 'Tenant', value: 'tenant' },
              { label: 'Public', value: 'public' },
              { label: 'Restricted', value: 'restricted' },
            ]}
          />
        </Form.Item>
        {visibility === 'restricted' && (
          <Form.Item label="Allowed users" name="allowedIds" extra="User ids, separated by commas">
            <Input />
          </Form.Item>
        )}
        <Form.Item name="allowDownload" valuePropName="checked">
          <Checkbox>Allow download</Checkbox>
        </Form.Item>
        <Form.Item name="watermark" valuePropName="checked">
          <Checkbox>Watermark</Checkbox>
        </Form.Item>
        <Form.Item label="Expiry date" name="expires" extra="Empty: the share does not expire">
          <DatePicker format="DD/MM/YYYY" allowClear style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          label="Passcode"
          name="passcode"
          extra={
            share.passcode.required
              ? 'A passcode is set. Enter a new one to replace it (this also unlocks a locked link).'
              : 'Optional: visitors must enter it to open the link.'
          }
          rules={[{ min: 4, message: 'A passcode needs at least 4 characters.' }]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
