import { Grid, Table, Typography } from 'antd';
import type { PortalRecords } from '@workspace/cis/contract';
import { taxMonthTitle } from '@workspace/rules';
import { pounds, ukDate } from '../../ui/format';

/** A statement's PDF, the subcontractor's own copy. */
export function StatementPdfLink({ id }: { id: string }) {
  return (
    <a href={`/api/portal/cis/statements/${id}/pdf`} target="_blank" rel="noreferrer">
      Download PDF
    </a>
  );
}

/** The issued statements: a table on a wide screen, one block per statement on a phone. */
export function PortalStatements({ statements }: { statements: PortalRecords['statements'] }) {
  const screens = Grid.useBreakpoint();
  if (screens.md === false) {
    if (statements.length === 0)
      return <Typography.Text type="secondary">No statements issued yet</Typography.Text>;
    return (
      <div style={{ display: 'grid' }}>
        {statements.map((statement) => (
          <div
            key={statement.id}
            data-testid="portal-statement"
            style={{ display: 'grid', gap: 4, padding: '12px 0', borderBottom: '1px solid #f0f0f0' }}
          >
            <Typography.Text strong>{taxMonthTitle(statement.taxMonth)}</Typography.Text>
            <Typography.Text>
              {`Gross ${pounds(statement.totals.grossP)} · Materials ${pounds(statement.totals.materialsP)} · CIS deducted ${pounds(statement.totals.cisDeductionP)}`}
            </Typography.Text>
            <Typography.Text type="secondary">
              {`${statement.invoiceCount} ${statement.invoiceCount === 1 ? 'invoice' : 'invoices'} · Issued ${ukDate(statement.issuedAt)}`}
            </Typography.Text>
            <StatementPdfLink id={statement.id} />
          </div>
        ))}
      </div>
    );
  }
  return (
    <Table
      rowKey="id"
      pagination={false}
      scroll={{ x: 'max-content' }}
      dataSource={statements}
      locale={{ emptyText: 'No statements issued yet' }}
      columns={[
        {
          title: 'Period',
          dataIndex: 'taxMonth',
          render: (label: string) => taxMonthTitle(label),
        },
        { title: 'Invoices', dataIndex: 'invoiceCount' },
        { title: 'Gross', render: (_, row) => pounds(row.totals.grossP) },
        { title: 'Materials', render: (_, row) => pounds(row.totals.materialsP) },
        { title: 'CIS deducted', render: (_, row) => pounds(row.totals.cisDeductionP) },
        { title: 'Issued', render: (_, row) => ukDate(row.issuedAt) },
        { title: '', render: (_, row) => <StatementPdfLink id={row.id} /> },
      ]}
    />
  );
}
