import type { SubcontractorTaxYear as TaxYear } from '@workspace/cis/contract';
import { taxYearName, taxYearSpan } from '@workspace/rules';
import { Alert, Card, Descriptions, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { pounds } from '../../../ui/format';
import { errorMessage } from '../../../ui/problem';
import { useSubcontractorTaxYearQuery } from '../api';

type Month = TaxYear['months'][number];

/**
 * A subcontractor's HMRC tax year (6 April–5 April), the detail page's card: what they were paid, materials and
 * deductions by tax month (named as HMRC names them), and the year's totals their tax return needs. Paid invoices by
 * payment date, as the monthly returns and statements count them; cancelled invoices never (issue 13).
 */
export function SubcontractorTaxYear({ subcontractorId }: { subcontractorId: string }) {
  const [taxYear, setTaxYear] = useState<number | undefined>(undefined);
  const { data, error, isFetching } = useSubcontractorTaxYearQuery({ id: subcontractorId, taxYear });
  const totals = data?.totals;

  return (
    <Card
      title="Tax Year"
      size="small"
      data-testid="subcontractor-tax-year"
      extra={
        data && (
          <Select<number>
            aria-label="Tax year"
            value={data.taxYearStart}
            style={{ minWidth: 110 }}
            options={data.years.map((year) => ({ value: year, label: taxYearName(year) }))}
            onChange={setTaxYear}
          />
        )
      }
    >
      {error ? (
        <Alert type="error" showIcon title={errorMessage(error, 'Failed to load the tax year')} />
      ) : (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          {data && (
            <Typography.Text type="secondary">
              {`${taxYearSpan(data.taxYearStart)}: payments by payment date; cancelled invoices are not counted.`}
            </Typography.Text>
          )}
          <Descriptions
            column={{ xs: 1, sm: 2, md: 4 }}
            size="small"
            bordered
            data-testid="tax-year-totals"
            title={data ? `Totals for ${data.taxYear}` : undefined}
          >
            <Descriptions.Item label="Gross paid">{pounds(totals?.grossP)}</Descriptions.Item>
            <Descriptions.Item label="Materials">{pounds(totals?.materialsP)}</Descriptions.Item>
            <Descriptions.Item label="CIS deducted">{pounds(totals?.cisDeductionP)}</Descriptions.Item>
            <Descriptions.Item label="Net paid (gross less deductions)">
              {pounds(totals?.netP)}
            </Descriptions.Item>
          </Descriptions>
          <Table<Month>
            rowKey="taxMonth"
            size="small"
            loading={isFetching}
            dataSource={data?.months ?? []}
            pagination={false}
            scroll={{ x: 'max-content' }}
            columns={[
              { title: 'Tax month', key: 'name', render: (_, row) => row.name },
              { title: 'Invoices', key: 'invoices', align: 'right', render: (_, row) => row.invoices },
              { title: 'Gross', key: 'gross', align: 'right', render: (_, row) => pounds(row.grossP) },
              {
                title: 'Materials',
                key: 'materials',
                align: 'right',
                render: (_, row) => pounds(row.materialsP),
              },
              {
                title: 'Deducted',
                key: 'deducted',
                align: 'right',
                render: (_, row) => pounds(row.cisDeductionP),
              },
              { title: 'Net', key: 'net', align: 'right', render: (_, row) => pounds(row.netP) },
            ]}
          />
        </Space>
      )}
    </Card>
  );
}
