import { Form, Modal } from 'antd';
import { useState } from 'react';
import { todayIso } from '../../../ui/format';
import { DateField } from '../../../ui/DateField';

/** 'Mark as Paid': the payment date, today by default. */
export function PayModal({
  count,
  onPay,
  onClose,
}: {
  count: number;
  onPay: (paymentDate: string) => Promise<void>;
  onClose: () => void;
}) {
  const [date, setDate] = useState(todayIso());
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open
      title="Mark as Paid"
      okText="Mark Paid"
      confirmLoading={busy}
      okButtonProps={{ disabled: !date }}
      onCancel={onClose}
      onOk={() => {
        setBusy(true);
        void onPay(date).finally(() => {
          setBusy(false);
        });
      }}
    >
      <Form layout="vertical">
        <Form.Item label="Payment date" extra={count > 1 ? `${count} invoices` : undefined}>
          <DateField aria-label="Payment date" value={date} onChange={setDate} allowClear={false} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
