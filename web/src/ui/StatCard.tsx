import { Card, Statistic } from 'antd';

/** One counter card of a list or the dashboard. */
export function StatCard({
  title,
  value,
  loading,
  testId,
}: {
  title: string;
  value: string | number;
  loading?: boolean;
  testId?: string;
}) {
  return (
    <Card size="small" data-testid={testId}>
      <Statistic title={title} value={value} loading={loading} />
    </Card>
  );
}
