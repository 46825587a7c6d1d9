import { Card } from 'antd';
import { PortalInvoices, SubmitInvoice } from '../components/invoices';
import { PageTitle, usePortal, WithRecords } from '../PortalShell';

/**
 * /portal/invoices: submit an invoice (with the deduction and net previewed), and every invoice with its status,
 * payment date, deduction and, for a rejected one, the contractor's reason.
 */
export function InvoicesPage() {
  const { session, reload } = usePortal();
  return (
    <>
      <PageTitle title="Invoices">
        Invoices you submit wait as Portal Pending until {session.tenant.name} approves or rejects them.
      </PageTitle>
      <WithRecords>
        {(records) => (
          <>
            <SubmitInvoice
              session={session}
              cisRate={records.subcontractor.verification.rate}
              onSubmitted={reload}
            />
            <Card title="Invoices">
              <PortalInvoices invoices={records.invoices} />
            </Card>
          </>
        )}
      </WithRecords>
    </>
  );
}
