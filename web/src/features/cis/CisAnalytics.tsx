import type { Analytics } from '@workspace/cis/contract';
import { taxMonthEndShort, taxMonthTitle } from '@workspace/rules';
import { Card, Col, Empty, Row, Segmented, Skeleton, Space, Table } from 'antd';
import { useState, type ReactElement } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useCisAnalyticsQuery } from './api';
import { CisQueryError } from './components/CisQueryError';
import { pounds } from '../../ui/format';

const colours = { gross: '#1677ff', materials: '#faad14', cis: '#f5222d' };

/** Room on the right for the last axis label (Recharts otherwise cuts it at the chart's edge). */
const chartMargin = { top: 8, right: 44, bottom: 0, left: 0 };

/** Recharts works in pounds; labels and tooltips show pounds with pence. */
const toPounds = (pence: number) => pence / 100;
const poundsTick = (value: number) => `£${value.toLocaleString('en-GB')}`;
const poundsTooltip = (value: unknown) =>
  typeof value === 'number' ? pounds(Math.round(value * 100)) : String(value);

/** The tooltip names the month in full: 'Month ending 5 November 2026'. */
const monthTooltipLabel = (_label: unknown, payload: readonly { payload?: { name?: string } }[]) =>
  payload[0]?.payload?.name ?? '';

function monthRows(data: Analytics) {
  return [...data.byMonth]
    .sort((a, b) => a.taxMonth.localeCompare(b.taxMonth))
    .map((row) => ({
      month: taxMonthEndShort(row.taxMonth),
      name: taxMonthTitle(row.taxMonth),
      Gross: toPounds(row.grossP),
      Materials: toPounds(row.materialsP),
      'CIS Deductions': toPounds(row.cisDeductionP),
      invoices: row.invoices,
    }));
}

/** The grid, axes, tooltip and legend of a chart by tax month (elements, not a component: Recharts reads its children). */
const monthAxes = () => [
  <CartesianGrid key="grid" strokeDasharray="3 3" />,
  <XAxis
    key="x"
    dataKey="month"
    interval="preserveStartEnd"
    minTickGap={12}
    label={{ value: 'Tax month ending', position: 'insideBottom', offset: 0 }}
    height={48}
  />,
  <YAxis key="y" tickFormatter={poundsTick} width={90} />,
  <Tooltip key="tooltip" formatter={poundsTooltip} labelFormatter={monthTooltipLabel} />,
  <Legend key="legend" wrapperStyle={{ paddingTop: 8 }} />,
];

/** A card holding one chart by tax month, or the empty state when the period has no invoices. */
function MonthChartCard({
  title,
  empty,
  children,
}: {
  title: string;
  empty: boolean;
  children: ReactElement;
}) {
  return (
    <Card title={title} size="small">
      {empty ? (
        <Empty description="No invoices in this period" />
      ) : (
        <ResponsiveContainer width="100%" height={320}>
          {children}
        </ResponsiveContainer>
      )}
    </Card>
  );
}

/** /cis/analytics: gross, materials and deductions per tax month, and per subcontractor. */
export function CisAnalytics() {
  const [months, setMonths] = useState(12);
  const { data, error, isLoading } = useCisAnalyticsQuery(months);

  if (isLoading) return <Skeleton active paragraph={{ rows: 10 }} />;
  if (error || !data)
    return <CisQueryError error={error} prefix="Error loading analytics: " action="view CIS analytics" />;
  const rows = monthRows(data);
  const subs = [...data.bySubcontractor].sort((a, b) => b.grossP - a.grossP);
  const subRows = subs.slice(0, 10).map((row) => ({
    name: row.name,
    Gross: toPounds(row.grossP),
    Materials: toPounds(row.materialsP),
    'CIS Deductions': toPounds(row.cisDeductionP),
  }));

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Segmented<number>
        value={months}
        onChange={setMonths}
        options={[
          { value: 3, label: '3 months' },
          { value: 6, label: '6 months' },
          { value: 12, label: '12 months' },
        ]}
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <MonthChartCard title="Gross, Materials and CIS Deductions by Tax Month" empty={rows.length === 0}>
            <BarChart data={rows} margin={chartMargin}>
              {monthAxes()}
              <Bar dataKey="Gross" fill={colours.gross} />
              <Bar dataKey="Materials" fill={colours.materials} />
              <Bar dataKey="CIS Deductions" fill={colours.cis} />
            </BarChart>
          </MonthChartCard>
        </Col>
        <Col xs={24} xl={10}>
          <MonthChartCard title="CIS Deductions Trend" empty={rows.length === 0}>
            <LineChart data={rows} margin={chartMargin}>
              {monthAxes()}
              <Line type="monotone" dataKey="CIS Deductions" stroke={colours.cis} />
              <Line type="monotone" dataKey="Gross" stroke={colours.gross} />
            </LineChart>
          </MonthChartCard>
        </Col>
      </Row>
      <Card title="By Subcontractor" size="small">
        {subs.length === 0 ? (
          <Empty description="No invoices in this period" />
        ) : (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <ResponsiveContainer width="100%" height={Math.max(200, subRows.length * 48)}>
              <BarChart data={subRows} layout="vertical" margin={{ ...chartMargin, left: 40 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis type="number" tickFormatter={poundsTick} />
                <YAxis type="category" dataKey="name" width={160} />
                <Tooltip formatter={poundsTooltip} />
                <Legend />
                <Bar dataKey="Gross" fill={colours.gross} />
                <Bar dataKey="CIS Deductions" fill={colours.cis} />
              </BarChart>
            </ResponsiveContainer>
            <Table
              rowKey="subcontractorId"
              size="small"
              pagination={false}
              dataSource={subs}
              columns={[
                { title: 'Subcontractor', dataIndex: 'name', key: 'name' },
                { title: 'Invoices', dataIndex: 'invoices', key: 'invoices' },
                { title: 'Gross', key: 'gross', render: (_, row) => pounds(row.grossP) },
                { title: 'Materials', key: 'materials', render: (_, row) => pounds(row.materialsP) },
                { title: 'CIS Deductions', key: 'cis', render: (_, row) => pounds(row.cisDeductionP) },
              ]}
            />
          </Space>
        )}
      </Card>
    </Space>
  );
}
