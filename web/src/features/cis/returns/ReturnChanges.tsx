import type { ReturnChanges as Changes } from '@workspace/cis/contract';
import { EditOutlined } from '@ant-design/icons';
import { taxMonthName } from '@workspace/rules';
import { Alert, App, Button, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { pounds } from '../../../ui/format';
import { errorMessage } from '../../../ui/problem';
import { useReturnActionMutation, useReturnChangesQuery } from '../api';
import { useCis } from '../context';

type Line = Changes['lines'][number];
type Figures = NonNullable<Line['submitted']>;

/** '£1,000.00 → £1,300.00 (+£300.00)': what was submitted, what it is now, and the difference. */
function change(before: number | undefined, after: number | undefined, money: boolean) {
  const show = (value: number) => (money ? pounds(value) : String(value));
  const a = before ?? 0;
  const b = after ?? 0;
  const difference = b - a;
  return (
    <span>
      {before === undefined ? 'none' : show(a)} → {after === undefined ? 'none' : show(b)}
      {difference !== 0 && (
        <Typography.Text type={difference > 0 ? 'warning' : 'danger'}>
          {' '}
          ({difference > 0 ? '+' : '−'}
          {show(Math.abs(difference))})
        </Typography.Text>
      )}
    </span>
  );
}

const figureColumn = (title: string, key: keyof Figures, money = true) => ({
  title,
  key,
  render: (_: unknown, line: Line) => change(line.submitted?.[key], line.live?.[key], money),
});

const columns: ColumnsType<Line> = [
  { title: 'Subcontractor', dataIndex: 'name', key: 'name' },
  figureColumn('Gross', 'grossP'),
  figureColumn('Materials', 'materialsP'),
  figureColumn('CIS Deducted', 'cisDeductedP'),
  figureColumn('Invoices', 'invoiceCount', false),
];

/**
 * A submitted return whose month's live figures differ from what was submitted (an invoice paid, changed or cancelled
 * into the month afterwards): "Changed since submission" with the difference per subcontractor and in total, and
 * Amend (the spec's amendment, compiled from the live figures, then declared and submitted again). Nothing when the
 * month's return is unchanged or was never submitted.
 */
export function ReturnChanges({ taxMonth }: { taxMonth: string }) {
  const { abilities } = useCis();
  const { modal } = App.useApp();
  const changes = useReturnChangesQuery(taxMonth);
  const [act, state] = useReturnActionMutation();
  const data = changes.data;
  if (!data?.submitted || !data.changed) return null;
  const submitted = data.submitted;
  const { totals } = data;

  const amend = async () => {
    try {
      await act({ id: submitted.id, action: 'amend' }).unwrap();
      modal.success({
        title: 'Amendment started',
        content:
          'The amended return holds the month’s figures as they are now. Check it, then submit it with the declarations.',
      });
    } catch (failure) {
      modal.error({ title: 'Amend Failed', content: errorMessage(failure, 'Failed to amend return') });
    }
  };

  return (
    <Alert
      type="warning"
      showIcon
      data-testid="return-changes"
      title={`Changed since submission: the ${taxMonthName(taxMonth)}`}
      description={
        <Space orientation="vertical" size="small" style={{ width: '100%' }}>
          <span>
            Invoices were paid, changed or cancelled in this month after its return was submitted, so the
            figures filed no longer match the books. Total CIS deducted:{' '}
            {change(totals.submitted.cisDeductedP, totals.live.cisDeductedP, true)}; total gross:{' '}
            {change(totals.submitted.grossP, totals.live.grossP, true)}.
          </span>
          <Table<Line>
            rowKey="subcontractorId"
            size="small"
            columns={columns}
            dataSource={data.lines}
            pagination={false}
            scroll={{ x: 'max-content' }}
          />
          {data.amendment ? (
            <Typography.Text>
              An amendment is in progress: check it and submit it with the declarations.
            </Typography.Text>
          ) : (
            abilities.canSubmit && (
              <Button icon={<EditOutlined />} loading={state.isLoading} onClick={() => void amend()}>
                Amend return
              </Button>
            )
          )}
        </Space>
      }
    />
  );
}
