import { Alert, Card, Col, Row, Spin, Typography } from 'antd';
import { Link } from 'react-router';
import type { PortalDashboard } from '@workspace/cis/contract';
import { taxMonthTitle } from '@workspace/rules';
import { StatCard } from '../../ui/StatCard';
import { pounds, ukDate } from '../../ui/format';
import { PortalInvoices } from '../components/invoices';
import { StatementPdfLink } from '../components/statements';
import { PageTitle, usePortal } from '../PortalShell';
import { usePortalQuery } from '../usePortalQuery';

/**
 * /portal/dashboard: what they were paid this tax month (gross, deduction, net), the invoices waiting for the
 * contractor's approval, and their latest statement to download.
 */
export function DashboardPage() {
  const { session } = usePortal();
  const { data, error } = usePortalQuery<PortalDashboard>('/api/portal/cis/dashboard');
  return (
    <>
      <PageTitle title="Dashboard">Your work for {session.tenant.name} at a glance.</PageTitle>
      {error ? <Alert type="error" showIcon title={error} /> : null}
      {!data && !error ? <Spin /> : null}
      {data ? (
        <>
          <Card title="Paid this tax month" data-testid="portal-month">
            <Typography.Paragraph type="secondary">{taxMonthTitle(data.taxMonth)}</Typography.Paragraph>
            <Row gutter={[12, 12]}>
              <Col xs={24} sm={8}>
                <StatCard title="Gross" value={pounds(data.paid.grossP)} testId="portal-month-gross" />
              </Col>
              <Col xs={24} sm={8}>
                <StatCard
                  title="CIS deducted"
                  value={pounds(data.paid.cisDeductionP)}
                  testId="portal-month-deduction"
                />
              </Col>
              <Col xs={24} sm={8}>
                <StatCard
                  title="Net paid (before VAT)"
                  value={pounds(data.paid.netP)}
                  testId="portal-month-net"
                />
              </Col>
            </Row>
            <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
              {data.paid.invoices === 1
                ? '1 invoice paid this tax month.'
                : `${data.paid.invoices} invoices paid this tax month.`}
            </Typography.Paragraph>
          </Card>
          <Card
            title="Awaiting approval"
            extra={<Link to="/portal/invoices">Submit an invoice</Link>}
            data-testid="portal-awaiting"
          >
            {data.awaitingApproval.length === 0 ? (
              <Typography.Text type="secondary">No invoices are waiting for approval.</Typography.Text>
            ) : (
              <PortalInvoices invoices={data.awaitingApproval} />
            )}
          </Card>
          <Card
            title="Latest statement"
            extra={<Link to="/portal/statements">All statements</Link>}
            data-testid="portal-latest-statement"
          >
            {data.latestStatement ? (
              <div style={{ display: 'grid', gap: 4 }}>
                <Typography.Text strong>{taxMonthTitle(data.latestStatement.taxMonth)}</Typography.Text>
                <Typography.Text>
                  {`Gross ${pounds(data.latestStatement.totals.grossP)} · CIS deducted ${pounds(data.latestStatement.totals.cisDeductionP)}`}
                </Typography.Text>
                <Typography.Text type="secondary">
                  {data.latestStatement.issuedAt ? `Issued ${ukDate(data.latestStatement.issuedAt)}` : ''}
                </Typography.Text>
                <StatementPdfLink id={data.latestStatement.id} />
              </div>
            ) : (
              <Typography.Text type="secondary">No statements issued yet</Typography.Text>
            )}
          </Card>
          <Link to="/portal/tax-year">Your tax year summary, for your tax return</Link>
        </>
      ) : null}
    </>
  );
}
