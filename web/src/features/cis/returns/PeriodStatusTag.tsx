import type { ReturnPeriod } from '@workspace/cis/contract';
import { Tag } from 'antd';
import { PERIOD_STATUS_COLOUR } from './periodText';

/** Where a month's return stands: Submitted, Due, Overdue, Month in progress, or as marked. */
export function PeriodStatusTag({ period }: { period: Pick<ReturnPeriod, 'status' | 'statusText'> }) {
  return (
    <Tag color={PERIOD_STATUS_COLOUR[period.status]} data-testid="period-status">
      {period.statusText}
    </Tag>
  );
}
