import type { ReturnPeriod } from '@workspace/cis/contract';
import { formatLongDate, formatPounds, taxMonthTitle } from '@workspace/rules';
import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useToast } from '../../../ui/feedback';
import { ukDate } from '../../../ui/format';
import { useCis } from '../context';
import { downloadFile } from '../download';
import { MarkPeriodAction, MarkPeriodModal } from './MarkPeriodModal';
import { markedByText, markReasonText } from './periodText';
import { PeriodStatusTag } from './PeriodStatusTag';

/**
 * The return history: every tax month since the module was switched on but the month in view, newest first, twelve
 * to a page (issue 13: no stop at 12), with the record-keeping notice.
 */
export function PeriodHistory({
  periods,
  inView,
  activeSince,
  onOpen,
}: {
  periods: ReturnPeriod[];
  inView: string;
  activeSince: string | null;
  onOpen: (taxMonth: string) => void;
}) {
  const { abilities, session } = useCis();
  const toast = useToast();
  const [marking, setMarking] = useState<ReturnPeriod | null>(null);
  const rows = periods.filter((period) => period.label !== inView);

  const columns: ColumnsType<ReturnPeriod> = [
    {
      title: 'Period',
      key: 'period',
      render: (_, period) => (
        <Button
          type="link"
          style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'left' }}
          onClick={() => {
            onOpen(period.label);
          }}
        >
          {taxMonthTitle(period.label)}
        </Button>
      ),
    },
    { title: 'Status', key: 'status', render: (_, period) => <PeriodStatusTag period={period} /> },
    { title: 'Filing Deadline', key: 'deadline', render: (_, period) => ukDate(period.filingDeadline) },
    {
      title: 'Penalty',
      key: 'penalty',
      render: (_, period) => (period.penalty.totalP > 0 ? formatPounds(period.penalty.totalP) : '-'),
    },
    {
      title: 'Subcontractors',
      key: 'subs',
      responsive: ['md'],
      render: (_, period) => period.return?.totals.subcontractors ?? '-',
    },
    {
      title: 'CIS',
      key: 'cis',
      responsive: ['md'],
      render: (_, period) => (period.return ? formatPounds(period.return.totals.cisDeductedP) : '-'),
    },
    {
      title: 'Submitted',
      key: 'submitted',
      responsive: ['lg'],
      render: (_, period) => (period.return?.submittedAt ? ukDate(period.return.submittedAt) : '-'),
    },
    ...(abilities.canSubmit
      ? [
          {
            title: '',
            key: 'actions',
            render: (_: unknown, period: ReturnPeriod) => (
              <MarkPeriodAction
                period={period}
                onMark={() => {
                  setMarking(period);
                }}
              />
            ),
          },
        ]
      : []),
  ];

  const exportCsv = (period: ReturnPeriod) => {
    if (!period.return) return;
    downloadFile(
      `/api/cis/returns/${encodeURIComponent(period.return.id)}/export.csv`,
      `cis-return-${period.return.id}.csv`,
    ).catch((error: unknown) => {
      toast.error(error instanceof Error ? error.message : 'No data to export');
    });
  };

  return (
    <Card title="Return History" size="small" data-testid="return-history">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Alert
          type="info"
          showIcon
          data-testid="records-notice"
          title="Keep CIS records for at least six years"
          description={
            <>
              HMRC requires a contractor’s CIS records (payments, deductions, statements and returns) to be
              kept for at least 3 years after the end of the tax year they relate to; the business’s own
              accounts and tax records may need six. Every return made here since{' '}
              {activeSince ? formatLongDate(activeSince) : 'the module was switched on'} stays listed below.
            </>
          }
        />
        <Table<ReturnPeriod>
          rowKey="label"
          size="middle"
          columns={columns}
          dataSource={rows}
          pagination={{ pageSize: 12, hideOnSinglePage: true, showSizeChanger: false }}
          expandable={{
            rowExpandable: (period) => Boolean(period.return ?? period.mark),
            expandedRowRender: (period) => (
              <Space orientation="vertical" style={{ width: '100%' }}>
                {period.mark && (
                  <Typography.Text>
                    Marked as {markReasonText(period.mark.reason)}{' '}
                    {markedByText(period.mark, session.user.uid)}
                    {period.mark.note ? `: ${period.mark.note}` : ''}
                  </Typography.Text>
                )}
                {period.return && (
                  <Descriptions column={{ xs: 1, md: 3 }} size="small">
                    <Descriptions.Item label="Total Gross">
                      {formatPounds(period.return.totals.grossP)}
                    </Descriptions.Item>
                    <Descriptions.Item label="Total Materials">
                      {formatPounds(period.return.totals.materialsP)}
                    </Descriptions.Item>
                    <Descriptions.Item label="Total CIS">
                      {formatPounds(period.return.totals.cisDeductedP)}
                    </Descriptions.Item>
                  </Descriptions>
                )}
                {period.return && period.return.totals.subcontractors > 0 && abilities.canExport && (
                  <Button
                    icon={<DownloadOutlined />}
                    onClick={() => {
                      exportCsv(period);
                    }}
                  >
                    Export CSV
                  </Button>
                )}
              </Space>
            ),
          }}
          locale={{ emptyText: 'No historical returns found' }}
        />
      </Space>
      {marking && (
        <MarkPeriodModal
          period={marking}
          onClose={() => {
            setMarking(null);
          }}
        />
      )}
    </Card>
  );
}
