import type { PeriodMarkInput, ReturnPeriod } from '@workspace/cis/contract';
import { taxMonthName } from '@workspace/rules';
import { Alert, Button, Form, Input, Modal, Radio, Space } from 'antd';
import { useCallback, useState } from 'react';
import { useConfirm, useToast } from '../../../ui/feedback';
import { errorMessage } from '../../../ui/problem';
import { useMarkPeriodMutation } from '../api';
import { markable } from './periodText';

type Reason = PeriodMarkInput['reason'];

const REASONS: { value: Reason; label: string; help: string }[] = [
  {
    value: 'filed_elsewhere',
    label: 'Filed elsewhere',
    help: 'The return for this month was filed with HMRC outside this product.',
  },
  {
    value: 'before_product',
    label: 'Before this product',
    help: 'The contractor’s CIS for this month was handled before this product was used.',
  },
  {
    value: 'inactive',
    label: 'HMRC told of inactivity',
    help: 'No payments were made and HMRC was told in advance, so no nil return is owed.',
  },
];

/** Marks a month as needing no return here (who and when are recorded and audited by the service). */
export function MarkPeriodModal({ period, onClose }: { period: ReturnPeriod; onClose: () => void }) {
  const [reason, setReason] = useState<Reason>('filed_elsewhere');
  const [note, setNote] = useState('');
  const [mark, state] = useMarkPeriodMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const save = async () => {
    setFailure(null);
    try {
      await mark({ taxMonth: period.label, mark: { reason, note } }).unwrap();
      onClose();
    } catch (error) {
      setFailure(errorMessage(error, 'The month could not be marked'));
    }
  };
  return (
    <Modal
      open
      title={`Mark the ${taxMonthName(period.label)}`}
      okText="Mark month"
      onOk={() => void save()}
      confirmLoading={state.isLoading}
      onCancel={onClose}
    >
      <Form layout="vertical">
        <Form.Item label="Why no return is owed here">
          <Radio.Group
            value={reason}
            onChange={(event) => {
              setReason(event.target.value as Reason);
            }}
          >
            <Space orientation="vertical">
              {REASONS.map((option) => (
                <Radio key={option.value} value={option.value}>
                  {option.label}
                  <div style={{ color: 'rgba(0,0,0,0.55)', fontSize: 12 }}>{option.help}</div>
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </Form.Item>
        <Form.Item label="Note (optional)">
          <Input.TextArea
            value={note}
            maxLength={500}
            rows={2}
            onChange={(event) => {
              setNote(event.target.value);
            }}
          />
        </Form.Item>
      </Form>
      {failure && <Alert type="error" showIcon title={failure} />}
    </Modal>
  );
}

/** Clears a month's mark after a confirmation: the month owes its return here again. */
export function useClearMark() {
  const confirm = useConfirm();
  const toast = useToast();
  const [mark] = useMarkPeriodMutation();
  return useCallback(
    async (taxMonth: string) => {
      const ok = await confirm({
        title: 'Clear the mark',
        message: `The ${taxMonthName(taxMonth)} will owe its return here again. Clear the mark?`,
        confirmText: 'Clear mark',
      });
      if (!ok) return;
      try {
        await mark({ taxMonth, mark: null }).unwrap();
      } catch (error) {
        toast.error(errorMessage(error, 'The mark could not be cleared'));
      }
    },
    [confirm, mark, toast],
  );
}

/** A month's mark action: Clear mark when it is marked, Mark… (`onMark` opens the dialog) when it may be marked. */
export function MarkPeriodAction({ period, onMark }: { period: ReturnPeriod; onMark: () => void }) {
  const clearMark = useClearMark();
  if (period.mark)
    return (
      <Button size="small" onClick={() => void clearMark(period.label)}>
        Clear mark
      </Button>
    );
  if (!markable(period)) return null;
  return (
    <Button size="small" onClick={onMark}>
      Mark…
    </Button>
  );
}
