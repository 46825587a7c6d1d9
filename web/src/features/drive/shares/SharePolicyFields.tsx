import { Checkbox, DatePicker, Form, Input, Radio } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { expiryTimestamp, splitAllowedUids } from '@workspace/drive/domain';
import type { Share, SharePolicy, ShareVisibility } from './types';

/** The policy a share is made or changed with (drive.md §2 Share Settings), as its form holds it. */
export interface SharePolicyForm {
  visibility: ShareVisibility;
  /** Restricted: the allowed user ids, typed comma separated. */
  allowedIds: string;
  allowDownload: boolean;
  watermark: boolean;
  /** Empty: the share does not expire. */
  expires: Dayjs | null;
  /** Blank: none (Create Share) or the one set kept (Share Settings). */
  passcode: string;
}

/** A new share's policy: the spec's defaults (allowDownload true, watermark false, no expiry), public. */
export const NEW_SHARE_POLICY: SharePolicyForm = {
  visibility: 'public',
  allowedIds: '',
  allowDownload: true,
  watermark: false,
  expires: null,
  passcode: '',
};

/** A share's policy as its form shows it (the passcode is never read back: blank keeps it). */
export function policyFormOf(share: Share): SharePolicyForm {
  return {
    visibility: share.visibility,
    allowedIds: share.allowedUids.join(', '),
    allowDownload: share.policy.allowDownload,
    watermark: share.policy.watermark,
    expires: share.policy.expiresAt ? dayjs(share.policy.expiresAt) : null,
    passcode: '',
  };
}

/**
 * The form's policy as the drive takes it: the allowed ids split on commas, trimmed, empties dropped (restricted
 * only), the expiry day as a full timestamp or null, and the passcode only when one was typed.
 */
export function policyRequest(values: SharePolicyForm): {
  visibility: ShareVisibility;
  allowedUids: string[];
  policy: SharePolicy;
  passcode?: string;
} {
  const passcode = values.passcode.trim();
  return {
    visibility: values.visibility,
    allowedUids: values.visibility === 'restricted' ? splitAllowedUids(values.allowedIds) : [],
    policy: {
      allowDownload: values.allowDownload,
      watermark: values.watermark,
      expiresAt: expiryTimestamp(values.expires ? values.expires.format('YYYY-MM-DD') : null),
    },
    ...(passcode ? { passcode } : {}),
  };
}

/**
 * The policy fields Create Share and Share Settings both show, inside their Form: visibility tenant, public or
 * restricted (restricted: the allowed ids), allow download, watermark, expiry date and passcode.
 */
export function SharePolicyFields({ passcodeHint }: { passcodeHint: string }) {
  const form = Form.useFormInstance<SharePolicyForm>();
  const visibility = Form.useWatch('visibility', form);
  return (
    <>
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
        extra={passcodeHint}
        rules={[{ min: 4, message: 'A passcode needs at least 4 characters.' }]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
