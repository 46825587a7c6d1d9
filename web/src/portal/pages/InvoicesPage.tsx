import { Card } from 'antd';
import { PortalInvoices, SubmitInvoice } from '../components/invoices';
import { PageTitle, usePortal, WithRecords } from '../PortalShell';

/** /portal/invoices: submit an invoice, and every invoice with its status, payment date, deduction and reason. */
export function InvoicesPage() {
  const { session, reload } = usePortal();
  return (
    <>
      <PageTitle title="Invoices">
        Invoices you submit wait as Portal Pending until {session.tenant.name} approves or rejects them.
      </PageTitle>
      <SubmitInvoice session={session} onSubmitted={reload} />
      <Card title="Invoices">
        <WithRecords>{(records) => <PortalInvoices invoices={records.invoices} />}</WithRecords>
      </Card>
    </>
  );
}
