import { Alert, Card, Col, Grid, Row, Select, Spin, Table, Typography } from 'antd';
import { useState } from 'react';
import type { PortalTaxYear } from '@workspace/cis/contract';
import { StatCard } from '../../ui/StatCard';
import { pounds, ukDate } from '../../ui/format';
import { PortalStatements } from '../components/statements';
import { PageTitle } from '../PortalShell';
import { usePortalQuery } from '../usePortalQuery';

type Month = PortalTaxYear['months'][number];

/** The months they were paid in: a table on a wide screen, one line per month on a phone. */
function Months({ months }: { months: Month[] }) {
  const screens = Grid.useBreakpoint();
  const paid = months.filter((month) => month.invoices > 0);
  if (paid.length === 0)
    return <Typography.Text type="secondary">No payments in this tax year</Typography.Text>;
  if (screens.md === false) {
    return (
      <div style={{ display: 'grid' }}>
        {paid.map((month) => (
          <div
            key={month.taxMonth}
            data-testid="portal-tax-month"
            style={{ display: 'grid', gap: 2, padding: '10px 0', borderBottom: '1px solid #f0f0f0' }}
          >
            <Typography.Text strong>{month.name}</Typography.Text>
            <Typography.Text>
              {`Gross ${pounds(month.grossP)} · Materials ${pounds(month.materialsP)}`}
            </Typography.Text>
            <Typography.Text>
              {`CIS deducted ${pounds(month.cisDeductionP)} · Net ${pounds(month.netP)}`}
            </Typography.Text>
          </div>
        ))}
      </div>
    );
  }
  return (
    <Table
      rowKey="taxMonth"
      pagination={false}
      size="small"
      dataSource={paid}
      columns={[
        { title: 'Tax month', dataIndex: 'name' },
        { title: 'Invoices', dataIndex: 'invoices' },
        { title: 'Gross', render: (_, row) => pounds(row.grossP) },
        { title: 'Materials', render: (_, row) => pounds(row.materialsP) },
        { title: 'CIS deducted', render: (_, row) => pounds(row.cisDeductionP) },
        { title: 'Net (before VAT)', render: (_, row) => pounds(row.netP) },
      ]}
    />
  );
}

/**
 * /portal/tax-year: a tax year (6 April to 5 April) of their payments and deductions, month by month and in total,
 * with every statement issued to them for it: what their own Self Assessment or company return needs. The figures
 * are the staff app's subcontractor-year summary (the same command in cis).
 */
export function TaxYearPage() {
  const [taxYear, setTaxYear] = useState<number | null>(null);
  const { data, error } = usePortalQuery<PortalTaxYear>(
    `/api/portal/cis/tax-year${taxYear === null ? '' : `?taxYear=${taxYear}`}`,
  );
  return (
    <>
      <PageTitle title="Tax year summary">
        Your payments and the tax deducted from them, for your own tax return.
      </PageTitle>
      {error ? <Alert type="error" showIcon title={error} /> : null}
      {!data && !error ? <Spin /> : null}
      {data ? (
        <>
          <Card
            title={`Tax year ${data.taxYear}`}
            extra={
              <Select
                aria-label="Tax year"
                value={data.taxYearStart}
                style={{ minWidth: 110 }}
                options={data.years.map((year) => ({
                  value: year,
                  label: `${year}-${String((year + 1) % 100).padStart(2, '0')}`,
                }))}
                onChange={(value: number) => {
                  setTaxYear(value);
                }}
              />
            }
            data-testid="portal-tax-year"
          >
            <Typography.Paragraph type="secondary">
              {`${ukDate(data.startDate)} to ${ukDate(data.endDate)}`}
            </Typography.Paragraph>
            <Row gutter={[12, 12]}>
              <Col xs={12} md={6}>
                <StatCard title="Gross" value={pounds(data.totals.grossP)} testId="portal-year-gross" />
              </Col>
              <Col xs={12} md={6}>
                <StatCard title="Materials" value={pounds(data.totals.materialsP)} />
              </Col>
              <Col xs={12} md={6}>
                <StatCard
                  title="CIS deducted"
                  value={pounds(data.totals.cisDeductionP)}
                  testId="portal-year-deduction"
                />
              </Col>
              <Col xs={12} md={6}>
                <StatCard
                  title="Net (before VAT)"
                  value={pounds(data.totals.netP)}
                  testId="portal-year-net"
                />
              </Col>
            </Row>
          </Card>
          <Card title="By tax month">
            <Months months={data.months} />
          </Card>
          <Card title="Statements for this tax year">
            <PortalStatements statements={data.statements} />
          </Card>
        </>
      ) : null}
    </>
  );
}
