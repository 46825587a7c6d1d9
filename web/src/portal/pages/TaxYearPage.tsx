import { Card } from 'antd';
import { PortalStatements } from '../components/statements';
import { PageTitle, WithRecords } from '../PortalShell';

/** /portal/tax-year: payments and deductions of a tax year with every statement, for the subcontractor's return. */
export function TaxYearPage() {
  return (
    <>
      <PageTitle title="Tax year">Your payments and deductions for your own tax return.</PageTitle>
      <WithRecords>
        {(records) => (
          <Card title="Statements">
            <PortalStatements statements={records.statements} />
          </Card>
        )}
      </WithRecords>
    </>
  );
}
