import { Form, Modal } from 'antd';
import { useState } from 'react';
import { todayIso } from '../../../ui/format';
import { DateField } from '../../../ui/DateField';
import { paymentDateError } from '../domain';

/**
 * 'Mark as Paid' (or, with `initial`, the correction of a paid invoice's payment date): the payment date, today by
 * default, never after today (later days are disabled; the service refuses them too).
 */
export function PayModal({
  count,
  onPay,
  onClose,
  title = 'Mark as Paid',
  okText = 'Mark Paid',
  initial,
}: {
  count: number;
  onPay: (paymentDate: string) => Promise<void>;
  onClose: () => void;
  title?: string;
  okText?: string;
  initial?: string;
}) {
  const today = todayIso();
  const [date, setDate] = useState(initial ?? today);
  const [busy, setBusy] = useState(false);
  const problem = date ? paymentDateError(date, today) : null;
  return (
    <Modal
      open
      title={title}
      okText={okText}
      confirmLoading={busy}
      okButtonProps={{ disabled: !date || problem !== null || date === initial }}
      onCancel={onClose}
      onOk={() => {
        setBusy(true);
        void onPay(date).finally(() => {
          setBusy(false);
        });
      }}
    >
      <Form layout="vertical">
        <Form.Item
          label="Payment date"
          extra={count > 1 ? `${count} invoices` : undefined}
          {...(problem ? { validateStatus: 'error' as const, help: problem } : {})}
        >
          <DateField
            aria-label="Payment date"
            value={date}
            onChange={setDate}
            allowClear={false}
            max={today}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
