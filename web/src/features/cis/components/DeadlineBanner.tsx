import { Alert } from 'antd';
import { ukDate } from '../../../ui/format';

/** The statements deadline: overdue (negative days), urgent (3 days or fewer) or pending. */
export function DeadlineBanner({
  deadline,
  periodLabel,
}: {
  deadline: { date: string; daysRemaining: number; state: 'overdue' | 'urgent' | 'pending' };
  periodLabel: string;
}) {
  const days = Math.abs(deadline.daysRemaining);
  const plural = days === 1 ? 'day' : 'days';
  if (deadline.state === 'overdue')
    return (
      <Alert
        type="error"
        showIcon
        data-state="overdue"
        title={`Statements overdue: they were due on ${ukDate(deadline.date)} (${days} ${plural} ago)`}
        description={periodLabel}
      />
    );
  if (deadline.state === 'urgent')
    return (
      <Alert
        type="warning"
        showIcon
        data-state="urgent"
        title={`Statements due in ${days} ${plural}: by ${ukDate(deadline.date)}`}
        description={periodLabel}
      />
    );
  return (
    <Alert
      type="info"
      showIcon
      data-state="pending"
      title={`Statements due by ${ukDate(deadline.date)} (${days} ${plural} remaining)`}
      description={periodLabel}
    />
  );
}
