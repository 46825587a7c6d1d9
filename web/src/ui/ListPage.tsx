import { Button, Col, Empty, Row, Skeleton, Space, Table, Tooltip, Typography } from 'antd';
import type { ColProps } from 'antd';
import type { ColumnsType, TableProps } from 'antd/es/table';
import type { ReactNode } from 'react';
import { StatCard } from './StatCard';

/** One summary card above a list: its title, value and grid widths. */
export interface StatCardSpec {
  title: string;
  value: string | number;
  span: ColProps;
}

/** The row of summary cards at the top of a list page. */
export function StatCardRow({ cards, loading }: { cards: StatCardSpec[]; loading: boolean }) {
  return (
    <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
      {cards.map((card) => (
        <Col key={card.title} {...card.span}>
          <StatCard title={card.title} value={card.value} loading={loading} />
        </Col>
      ))}
    </Row>
  );
}

/** The "{n} selected" text and the bulk buttons, shown in a list's toolbar while rows are selected. */
export function SelectionBar({ count, children }: { count: number; children: ReactNode }) {
  if (count === 0) return null;
  return (
    <>
      <Typography.Text>{count} selected</Typography.Text>
      {children}
    </>
  );
}

/** An icon button with a tooltip in a table's actions column. */
export function RowAction({
  title,
  icon,
  label,
  onClick,
  danger,
}: {
  title: string;
  icon: ReactNode;
  label: string;
  onClick: () => void;
  danger?: boolean;
}) {
  return (
    <Tooltip title={title}>
      <Button type="text" danger={danger} icon={icon} aria-label={label} onClick={onClick} />
    </Tooltip>
  );
}

/** A list's selected row ids, for its checkbox column and bulk actions. */
export interface RowSelection {
  selected: string[];
  onChange: (ids: string[]) => void;
}

/**
 * A list page's table: a skeleton while the first page loads, the error view when it failed, else the rows, with an
 * empty state that says what to do next.
 */
export function ListTable<Row extends { id: string }>({
  loading,
  skeletonRows,
  skeletonTestId,
  error,
  fetching,
  columns,
  rows,
  selection,
  pagination,
  emptyTitle,
  emptyHint,
}: {
  loading: boolean;
  skeletonRows: number;
  skeletonTestId?: string;
  /** The error view (a QueryError), or null when the load did not fail. */
  error: ReactNode;
  fetching: boolean;
  columns: ColumnsType<Row>;
  rows: Row[];
  /** Undefined when the user may not act on rows in bulk (no checkbox column). */
  selection: RowSelection | undefined;
  pagination: TableProps<Row>['pagination'];
  emptyTitle: string;
  emptyHint: string;
}) {
  if (loading) return <Skeleton active paragraph={{ rows: skeletonRows }} data-testid={skeletonTestId} />;
  if (error) return error;
  return (
    <Table<Row>
      rowKey="id"
      size="middle"
      loading={fetching}
      columns={columns}
      dataSource={rows}
      rowSelection={
        selection
          ? {
              selectedRowKeys: selection.selected,
              onChange: (keys) => {
                selection.onChange(keys.map(String));
              },
            }
          : undefined
      }
      pagination={pagination}
      locale={{
        emptyText: (
          <Empty
            description={
              <Space orientation="vertical" size={0}>
                <Typography.Text strong>{emptyTitle}</Typography.Text>
                <Typography.Text type="secondary">{emptyHint}</Typography.Text>
              </Space>
            }
          />
        ),
      }}
    />
  );
}
