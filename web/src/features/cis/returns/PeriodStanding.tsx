import type { ReturnPeriod } from '@workspace/cis/contract';
import { Alert, Space } from 'antd';
import { useState } from 'react';
import { useCis } from '../context';
import { MarkPeriodAction, MarkPeriodModal } from './MarkPeriodModal';
import { markedByText, standingText } from './periodText';

const ALERT_TYPE: Record<ReturnPeriod['status'], 'error' | 'warning' | 'info' | 'success'> = {
  overdue: 'error',
  due: 'warning',
  in_progress: 'info',
  filed: 'success',
  filed_elsewhere: 'info',
  before_product: 'info',
  inactive: 'info',
  not_required: 'info',
};

/** Where the return of the month in view stands (deadline, penalty, not ended yet, marked), with Mark / Clear mark. */
export function PeriodStanding({ period, today }: { period: ReturnPeriod; today: string }) {
  const { abilities, session } = useCis();
  const [marking, setMarking] = useState(false);
  const action = abilities.canSubmit ? (
    <MarkPeriodAction
      period={period}
      onMark={() => {
        setMarking(true);
      }}
    />
  ) : null;
  return (
    <>
      <Alert
        type={ALERT_TYPE[period.status]}
        showIcon
        data-testid="period-standing"
        title={
          <Space wrap>
            <span>{standingText(period, today)}</span>
            {period.mark && (
              <span>
                Marked {markedByText(period.mark, session.user.uid)}
                {period.mark.note ? `: ${period.mark.note}` : ''}.
              </span>
            )}
          </Space>
        }
        action={action}
      />
      {marking && (
        <MarkPeriodModal
          period={period}
          onClose={() => {
            setMarking(false);
          }}
        />
      )}
    </>
  );
}
