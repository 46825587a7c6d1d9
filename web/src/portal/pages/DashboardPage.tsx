import { Card } from 'antd';
import { PortalInvoices } from '../components/invoices';
import { PortalStatements } from '../components/statements';
import { PageTitle, usePortal, WithRecords } from '../PortalShell';

/** /portal/dashboard: this tax month's payments, invoices awaiting approval, the latest statement. */
export function DashboardPage() {
  const { session } = usePortal();
  return (
    <>
      <PageTitle title="Dashboard">Your work for {session.tenant.name} at a glance.</PageTitle>
      <WithRecords>
        {(records) => (
          <>
            <Card title="Awaiting approval">
              <PortalInvoices
                invoices={records.invoices.filter((invoice) => invoice.status === 'portal_draft')}
              />
            </Card>
            <Card title="Latest statement">
              <PortalStatements statements={records.statements.slice(0, 1)} />
            </Card>
          </>
        )}
      </WithRecords>
    </>
  );
}
