import { Card } from 'antd';
import { PortalStatements } from '../components/statements';
import { PageTitle, usePortal, WithRecords } from '../PortalShell';

/** /portal/statements: every payment and deduction statement issued to the subcontractor, as its PDF. */
export function StatementsPage() {
  const { session } = usePortal();
  return (
    <>
      <PageTitle title="Statements">
        Payment and deduction statements {session.tenant.name} has issued to you, as the PDF they issued.
      </PageTitle>
      <Card title="Payment and deduction statements">
        <WithRecords>{(records) => <PortalStatements statements={records.statements} />}</WithRecords>
      </Card>
    </>
  );
}
