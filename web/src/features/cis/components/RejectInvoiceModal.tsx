import type { Invoice } from '@workspace/cis/contract';
import { Alert, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useToast } from '../../../ui/feedback';
import { errorMessage } from '../../../ui/problem';
import { useRejectInvoiceMutation } from '../api';
import { REJECTION_REASON_MAX, validateRejectionReason } from '../domain';

/**
 * 'Reject Invoice' for a portal-submitted invoice: staff give the reason, which the subcontractor reads in the portal
 * and in the e-mail that tells them. A refused request keeps the reason typed and says why in the dialog.
 */
export function RejectInvoiceModal({
  invoice,
  onClose,
}: {
  invoice: Pick<Invoice, 'id' | 'invoiceNumber' | 'subcontractorName'>;
  onClose: () => void;
}) {
  const toast = useToast();
  const [reject, state] = useRejectInvoiceMutation();
  const [reason, setReason] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async () => {
    const valid = validateRejectionReason(reason);
    if (!valid.ok) {
      setFieldError(valid.error);
      return;
    }
    setFailure(null);
    try {
      const result = await reject({ id: invoice.id, reason: valid.reason }).unwrap();
      if (result.emailSent)
        toast.success(
          `Invoice ${invoice.invoiceNumber} rejected. ${invoice.subcontractorName} has been emailed the reason.`,
        );
      else
        toast.warning(
          `Invoice ${invoice.invoiceNumber} rejected, but the email to ${invoice.subcontractorName} could not be sent: they will see the reason in the portal.`,
        );
      onClose();
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };

  return (
    <Modal
      open
      title="Reject Invoice"
      okText="Reject"
      okButtonProps={{ danger: true }}
      confirmLoading={state.isLoading}
      onCancel={onClose}
      onOk={() => void submit()}
    >
      <Typography.Paragraph>Reject this portal-submitted invoice?</Typography.Paragraph>
      <Typography.Paragraph type="secondary">
        {`${invoice.subcontractorName} will see invoice ${invoice.invoiceNumber} as Rejected with your reason in the portal, and is emailed it.`}
      </Typography.Paragraph>
      {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} />}
      <Form layout="vertical">
        <Form.Item
          label="Reason for rejecting"
          required
          validateStatus={fieldError ? 'error' : undefined}
          help={fieldError ?? undefined}
        >
          <Input.TextArea
            aria-label="Reason for rejecting"
            autoFocus
            rows={4}
            maxLength={REJECTION_REASON_MAX}
            showCount
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              setFieldError(null);
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
