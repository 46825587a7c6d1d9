import { Form, Modal } from 'antd';
import { useToast } from '../../../ui/feedback';
import { fieldErrorMessage } from '../../../ui/problem';
import { useShareSettingsMutation } from './api';
import { policyFormOf, policyRequest, SharePolicyFields, type SharePolicyForm } from './SharePolicyFields';
import type { Share } from './types';

export const SAVE_FAILED = 'Failed to save settings';

/**
 * Share Settings (drive.md §2): visibility tenant, public or restricted (restricted: the allowed user ids, comma
 * separated), allow download, watermark, expiry (empty: none), and a passcode for the link (blank keeps the one set).
 */
export function ShareSettingsDialog({ share, onClose }: { share: Share; onClose: () => void }) {
  const toast = useToast();
  const [form] = Form.useForm<SharePolicyForm>();
  const [save, { isLoading }] = useShareSettingsMutation();
  const submit = async (values: SharePolicyForm) => {
    const { passcode, ...updates } = policyRequest(values);
    try {
      await save({ shareId: share.id, updates, ...(passcode ? { passcode } : {}) }).unwrap();
      toast.success('Share settings saved');
      onClose();
    } catch (error) {
      // The server's message when it gave one (drive.md §7, §8), else the spec's: never a transport's own text.
      toast.error(fieldErrorMessage(error, SAVE_FAILED));
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
      <Form<SharePolicyForm>
        form={form}
        layout="vertical"
        initialValues={policyFormOf(share)}
        onFinish={(values) => void submit(values)}
      >
        <SharePolicyFields
          passcodeHint={
            share.passcode.required
              ? 'A passcode is set. Enter a new one to replace it (this also unlocks a locked link).'
              : 'Optional: visitors must enter it to open the link.'
          }
        />
      </Form>
    </Modal>
  );
}
