import type { InviteResult } from '@workspace/cis/contract';
import { CheckCircleOutlined, CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Modal, Result, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useToast } from '../../../ui/feedback';
import { useInviteSubcontractorMutation } from '../api';
import { errorMessage } from '../../../ui/problem';
import { LabelledInput } from '../../../ui/LabelledInput';
import { validateUtr, type InviteeFields } from '../domain';
import { ExistingSubcontractorAlert, existingRecordOf, type ExistingRecord } from './ExistingSubcontractor';

const emptyForm: InviteeFields = {
  name: '',
  email: '',
  type: 'individual',
  utr: '',
  nino: '',
  companyNumber: '',
};

/** Copies text to the clipboard (a secure context: the bff's https origin or localhost). */
export async function copyText(text: string): Promise<void> {
  await navigator.clipboard.writeText(text);
}

const reload = () => {
  window.location.reload();
};

/** The link panel shared by the invite modal and the row invite. */
export function PortalLinkPanel({ result, email }: { result: InviteResult; email?: string }) {
  const toast = useToast();
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="middle">
      {result.emailSent ? (
        <Alert
          type="success"
          showIcon
          title={`An invitation email has been sent to ${email ?? 'the subcontractor'}.`}
        />
      ) : (
        <Alert
          type="warning"
          showIcon
          title={
            <span>
              <strong>Note:</strong>{' '}
              {result.warning ?? 'Email could not be sent. Please share the link manually.'}
            </span>
          }
        />
      )}
      <div>
        <Typography.Text strong>Portal Access Link (expires in 15 minutes)</Typography.Text>
        <Input.TextArea
          readOnly
          value={result.magicLink}
          autoSize={{ minRows: 2, maxRows: 4 }}
          aria-label="Portal Access Link"
          style={{ marginTop: 4 }}
        />
      </div>
      <Button
        icon={<CopyOutlined />}
        onClick={() => {
          copyText(result.magicLink)
            .then(() => {
              toast.success('Link copied to clipboard!');
            })
            .catch(() => {
              toast.error('Could not copy the link');
            });
        }}
      >
        Copy Link to Clipboard
      </Button>
      <Typography.Text type="secondary">
        This link expires in 15 minutes and can only be used once.
      </Typography.Text>
    </Space>
  );
}

/**
 * 'Invite Subcontractor to Portal': creates the subcontractor and sends the single-use portal link. States: the
 * form, 'Creating...' while busy, then the 'Invitation Created' panel (with the email warning when the email
 * could not be sent). When the email or UTR is already a subcontractor's, the service refuses a second record and
 * the modal offers that subcontractor instead (ADR 0039): 'Invite <name>' sends the link to the existing record.
 */
export function InviteModal({ onClose }: { onClose: () => void }) {
  const [form, setForm] = useState<InviteeFields>(emptyForm);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<InviteResult | null>(null);
  const [onFile, setOnFile] = useState<ExistingRecord | undefined>(undefined);
  const [invitedExisting, setInvitedExisting] = useState<ExistingRecord | undefined>(undefined);
  const [invite, { isLoading }] = useInviteSubcontractorMutation();
  const set = <K extends keyof InviteeFields>(key: K, value: InviteeFields[K]) => {
    setForm((previous) => ({ ...previous, [key]: value }));
    setError(null);
    setOnFile(undefined);
  };

  const inviteExisting = async (existing: ExistingRecord) => {
    try {
      setResult(await invite({ subcontractorId: existing.id }).unwrap());
      setInvitedExisting(existing);
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to send invitation'));
      setOnFile(undefined);
    }
  };

  const submit = async () => {
    if (!form.name.trim() || !form.email.trim()) {
      setError('Name and email are required');
      return;
    }
    // The service checks a given UTR as the subcontractor form does (security review L17); say so before the call.
    const utr = form.utr.trim() ? validateUtr(form.utr) : undefined;
    if (utr && !utr.valid) {
      setError(utr.error);
      return;
    }
    try {
      const created = await invite({
        name: form.name.trim(),
        email: form.email.trim(),
        type: form.type,
        ...(form.utr.trim() ? { utr: form.utr.trim() } : {}),
        ...(form.type === 'individual' && form.nino.trim() ? { nino: form.nino.trim() } : {}),
        ...(form.type !== 'individual' && form.companyNumber.trim()
          ? { companyNumber: form.companyNumber.trim() }
          : {}),
      }).unwrap();
      setResult(created);
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to create subcontractor and send invitation'));
      setOnFile(existingRecordOf(failure));
    }
  };

  return (
    <Modal
      open
      title={result ? 'Invitation Created' : 'Invite Subcontractor to Portal'}
      onCancel={result ? reload : onClose}
      mask={{ closable: !isLoading && !result }}
      footer={
        result ? (
          <Button type="primary" onClick={reload}>
            Close &amp; Refresh
          </Button>
        ) : (
          <Space>
            <Button onClick={onClose} disabled={isLoading}>
              Cancel
            </Button>
            <Button type="primary" loading={isLoading} onClick={() => void submit()}>
              {isLoading ? 'Creating...' : 'Create & Send Invite'}
            </Button>
          </Space>
        )
      }
    >
      {result ? (
        <Space orientation="vertical" style={{ width: '100%' }} size="middle">
          <Result
            status="success"
            icon={<CheckCircleOutlined />}
            title={
              invitedExisting
                ? `${invitedExisting.name} invited to the portal`
                : 'Subcontractor created successfully!'
            }
            style={{ padding: 8 }}
          />
          <PortalLinkPanel result={result} email={invitedExisting?.email ?? form.email.trim()} />
        </Space>
      ) : (
        <Form layout="vertical" requiredMark>
          {error &&
            (onFile ? (
              <div style={{ marginBottom: 16 }}>
                <ExistingSubcontractorAlert
                  message={error}
                  existing={onFile}
                  onOpen={onClose}
                  action={
                    <Button
                      size="small"
                      type="primary"
                      loading={isLoading}
                      onClick={() => void inviteExisting(onFile)}
                    >
                      Invite {onFile.name}
                    </Button>
                  }
                />
              </div>
            ) : (
              <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />
            ))}
          <LabelledInput
            label="Name"
            required
            value={form.name}
            onChange={(value) => {
              set('name', value);
            }}
          />
          <LabelledInput
            label="Email"
            required
            type="email"
            value={form.email}
            onChange={(value) => {
              set('email', value);
            }}
          />
          <Form.Item label="Type">
            <Select
              aria-label="Type"
              value={form.type}
              onChange={(value) => {
                set('type', value);
              }}
              options={[
                { value: 'individual', label: 'Individual' },
                { value: 'company', label: 'Company' },
                { value: 'partnership', label: 'Partnership' },
              ]}
            />
          </Form.Item>
          <LabelledInput
            label="UTR"
            maxLength={10}
            value={form.utr}
            onChange={(value) => {
              set('utr', value);
            }}
          />
          {form.type === 'individual' ? (
            <LabelledInput
              label="National Insurance Number"
              value={form.nino}
              onChange={(value) => {
                set('nino', value);
              }}
            />
          ) : (
            <LabelledInput
              label="Company Number"
              value={form.companyNumber}
              onChange={(value) => {
                set('companyNumber', value);
              }}
            />
          )}
        </Form>
      )}
    </Modal>
  );
}
