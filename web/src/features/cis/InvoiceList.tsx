import {
  CheckOutlined,
  CloseOutlined,
  DeleteOutlined,
  DollarOutlined,
  EditOutlined,
  EyeOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { Button, Col, Empty, Row, Select, Skeleton, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useConfirm, useToast } from '../../ui/feedback';
import {
  useBulkInvoicesMutation,
  useInvoiceActionMutation,
  useInvoicesQuery,
  type Invoice,
  type InvoiceFilters,
  type InvoicePeriod,
} from './api';
import { invoicePeriods, listPeriodOptions, useUrlFilter, useUrlSearch } from './components/filters';
import { invoiceAllows, statementPending } from './components/invoiceActions';
import { PayModal } from './components/PayModal';
import { QueryError } from '../../ui/QueryError';
import { StatCard } from '../../ui/StatCard';
import { InvoiceStatusBadge } from './components/StatusBadge';
import { useInvoiceStream } from './components/useInvoiceStream';
import { useCis } from './context';
import { MATERIALS_WARNING_PERCENT, materialsAtLeastPercent } from './domain';
import { pounds, ukDate } from '../../ui/format';
import { errorMessage } from '../../ui/problem';

const statuses = ['all', 'draft', 'portal_draft', 'approved', 'paid', 'cancelled'] as const;
const PAGE_SIZE = 50;

/** /cis/invoices: filters, summary cards, the table with row and bulk actions, pagination, live updates. */
export function InvoiceList() {
  const { abilities, session } = useCis();
  const navigate = useNavigate();
  const toast = useToast();
  const confirm = useConfirm();
  const search = useUrlSearch();
  const [params, setParams] = useSearchParams();
  const [status, setStatus] = useUrlFilter<InvoiceFilters['status']>('status', 'all', statuses);
  const [period, setPeriod] = useUrlFilter<InvoicePeriod>('period', 'all', invoicePeriods);
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const [selected, setSelected] = useState<string[]>([]);
  const [paying, setPaying] = useState<string[] | null>(null);
  const { data, error, isLoading, isFetching } = useInvoicesQuery({
    search,
    status,
    period,
    page,
    pageSize: PAGE_SIZE,
  });
  const [act] = useInvoiceActionMutation();
  const [bulk, bulkState] = useBulkInvoicesMutation();
  useInvoiceStream();
  const filtered = Boolean(search) || status !== 'all' || period !== 'all';

  const setPage = (next: number) => {
    setParams(
      (previous) => {
        const updated = new URLSearchParams(previous);
        if (next === 1) updated.delete('page');
        else updated.set('page', String(next));
        return updated;
      },
      { replace: true },
    );
  };

  const runAction = async (invoice: Invoice, action: 'approve' | 'reject') => {
    if (action === 'reject') {
      const ok = await confirm({
        title: 'Reject Invoice',
        message: 'Reject this portal-submitted invoice?',
        confirmText: 'Reject',
        style: 'danger',
      });
      if (!ok) return;
    }
    try {
      await act({ id: invoice.id, action }).unwrap();
      if (action === 'reject') {
        window.location.reload();
        return;
      }
      toast.success(`Invoice ${invoice.invoiceNumber} approved`);
    } catch (failure) {
      toast.error(errorMessage(failure));
    }
  };

  const pay = async (ids: string[], paymentDate: string) => {
    try {
      if (ids.length === 1 && ids[0]) await act({ id: ids[0], action: 'pay', paymentDate }).unwrap();
      else await bulk({ action: 'pay', ids, paymentDate }).unwrap();
      toast.success(ids.length === 1 ? 'Invoice marked as paid' : `${ids.length} invoices marked as paid`);
      setPaying(null);
    } catch (failure) {
      toast.error(errorMessage(failure));
    }
  };

  // Bulk approve or delete failures are logged only (spec section 8).
  const bulkRun = async (action: 'approve' | 'delete') => {
    if (action === 'delete') {
      const ok = await confirm({
        title: 'Delete Invoices',
        message: `Delete ${selected.length} invoice(s)?`,
        confirmText: 'Delete',
        style: 'danger',
      });
      if (!ok) return;
    }
    try {
      const result = await bulk({ action, ids: selected }).unwrap();
      if (result.succeeded.length > 0)
        toast.success(
          `${result.succeeded.length} invoice(s) ${action === 'approve' ? 'approved' : 'deleted'}`,
        );
      // eslint-disable-next-line no-console -- the spec logs bulk failures without a user message
      if (result.failed.length > 0) console.warn(`Bulk ${action}: some invoices failed`, result.failed);
    } catch (failure) {
      // eslint-disable-next-line no-console -- the spec logs bulk failures without a user message
      console.error(`Bulk ${action} failed`, failure);
    }
    setSelected([]);
  };

  const columns: ColumnsType<Invoice> = [
    {
      title: 'Invoice',
      key: 'invoice',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <Space size={4}>
            <Link to={`/cis/invoices/${row.id}`}>{row.invoiceNumber}</Link>
            {row.source === 'portal' && <Tag color="cyan">Portal</Tag>}
          </Space>
          <Typography.Text type="secondary">{ukDate(row.invoiceDate)}</Typography.Text>
        </Space>
      ),
    },
    {
      title: 'Subcontractor',
      key: 'subcontractor',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <span>{row.subcontractorName}</span>
          <Typography.Text type="secondary">
            {row.piiMasked?.utrMasked ?? row.piiMasked?.ninoMasked ?? ''}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: 'Amounts',
      key: 'amounts',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <span>{pounds(row.amounts.grossP)}</span>
          <Typography.Text type="secondary">
            Materials {pounds(row.amounts.materialsP)}{' '}
            {materialsAtLeastPercent(
              row.amounts.grossP,
              row.amounts.materialsP,
              MATERIALS_WARNING_PERCENT,
            ) && (
              <Tooltip title={`Materials are ${row.amounts.materialsPercentage}% of gross`}>
                <WarningOutlined style={{ color: '#faad14' }} aria-label="High materials percentage" />
              </Tooltip>
            )}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: 'CIS',
      key: 'cis',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <span>{pounds(row.amounts.cisDeductionP)}</span>
          <Typography.Text type="secondary">{`${row.cisRate ?? row.verificationSnapshot?.rate ?? 0}%`}</Typography.Text>
          {statementPending(row) && <Tag color="orange">Statement pending</Tag>}
        </Space>
      ),
    },
    {
      title: 'Dates',
      key: 'dates',
      render: (_, row) =>
        row.paymentDate ? (
          <Space orientation="vertical" size={0}>
            <span>{ukDate(row.paymentDate)}</span>
            <Typography.Text type="secondary">{row.taxMonth ?? ''}</Typography.Text>
          </Space>
        ) : (
          <Typography.Text type="secondary">Not paid</Typography.Text>
        ),
    },
    { title: 'Status', key: 'status', render: (_, row) => <InvoiceStatusBadge status={row.status} /> },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, row) => (
        <Space size={0}>
          <Tooltip title="View">
            <Button
              type="text"
              icon={<EyeOutlined />}
              aria-label={`View ${row.invoiceNumber}`}
              onClick={() => void navigate(`/cis/invoices/${row.id}`)}
            />
          </Tooltip>
          {invoiceAllows(row, 'edit', abilities) && (
            <Tooltip title="Edit">
              <Button
                type="text"
                icon={<EditOutlined />}
                aria-label={`Edit ${row.invoiceNumber}`}
                onClick={() => void navigate(`/cis/invoices/${row.id}/edit`)}
              />
            </Tooltip>
          )}
          {invoiceAllows(row, 'approve', abilities) && (
            <Tooltip title="Approve">
              <Button
                type="text"
                icon={<CheckOutlined />}
                aria-label={`Approve ${row.invoiceNumber}`}
                onClick={() => void runAction(row, 'approve')}
              />
            </Tooltip>
          )}
          {invoiceAllows(row, 'reject', abilities) && (
            <Tooltip title="Reject">
              <Button
                type="text"
                danger
                icon={<CloseOutlined />}
                aria-label={`Reject ${row.invoiceNumber}`}
                onClick={() => void runAction(row, 'reject')}
              />
            </Tooltip>
          )}
          {invoiceAllows(row, 'pay', abilities) && (
            <Tooltip title="Mark Paid">
              <Button
                type="text"
                icon={<DollarOutlined />}
                aria-label={`Mark ${row.invoiceNumber} paid`}
                onClick={() => {
                  setPaying([row.id]);
                }}
              />
            </Tooltip>
          )}
        </Space>
      ),
    },
  ];

  const summary = data?.summary;
  return (
    <div>
      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        <Col xs={12} md={8} xl={4}>
          <StatCard title="Total" value={summary?.total ?? 0} loading={isLoading} />
        </Col>
        <Col xs={12} md={8} xl={5}>
          <StatCard title="Draft" value={summary?.draft ?? 0} loading={isLoading} />
        </Col>
        <Col xs={12} md={8} xl={5}>
          <StatCard title="Approved" value={summary?.approved ?? 0} loading={isLoading} />
        </Col>
        <Col xs={12} md={12} xl={5}>
          <StatCard title="This Month CIS" value={pounds(summary?.thisMonthCisP ?? 0)} loading={isLoading} />
        </Col>
        <Col xs={24} md={12} xl={5}>
          <StatCard title="Pending Statements" value={summary?.pendingStatements ?? 0} loading={isLoading} />
        </Col>
      </Row>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          aria-label="Status filter"
          value={status}
          onChange={setStatus}
          style={{ width: 170 }}
          options={[
            { value: 'all', label: 'All statuses' },
            { value: 'draft', label: 'Draft' },
            { value: 'approved', label: 'Approved' },
            { value: 'paid', label: 'Paid' },
            { value: 'cancelled', label: 'Cancelled' },
          ]}
        />
        <Select
          aria-label="Period filter"
          value={period}
          onChange={setPeriod}
          style={{ width: 170 }}
          options={listPeriodOptions(period)}
        />
        {selected.length > 0 && (
          <>
            <Typography.Text>{selected.length} selected</Typography.Text>
            <Button
              icon={<CheckOutlined />}
              loading={bulkState.isLoading}
              onClick={() => void bulkRun('approve')}
            >
              Approve Selected
            </Button>
            <Button
              danger
              icon={<DeleteOutlined />}
              loading={bulkState.isLoading}
              onClick={() => void bulkRun('delete')}
            >
              Delete Selected
            </Button>
          </>
        )}
      </Space>
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 8 }} data-testid="invoices-loading" />
      ) : error ? (
        <QueryError
          session={session}
          module="cis"
          error={error}
          prefix="Error loading invoices: "
          action="view invoices"
        />
      ) : (
        <Table<Invoice>
          rowKey="id"
          size="middle"
          loading={isFetching}
          columns={columns}
          dataSource={data?.items ?? []}
          rowSelection={
            abilities.canApprove
              ? {
                  selectedRowKeys: selected,
                  onChange: (keys) => {
                    setSelected(keys.map(String));
                  },
                }
              : undefined
          }
          pagination={{
            current: data?.page ?? page,
            pageSize: data?.pageSize ?? PAGE_SIZE,
            total: data?.total ?? 0,
            showTotal: (total) => `${total.toLocaleString('en-GB')}${data?.totalCapped ? '+' : ''} invoices`,
            hideOnSinglePage: true,
            showSizeChanger: false,
            onChange: setPage,
          }}
          locale={{
            emptyText: (
              <Empty
                description={
                  <Space orientation="vertical" size={0}>
                    <Typography.Text strong>No invoices found</Typography.Text>
                    <Typography.Text type="secondary">
                      {filtered ? 'Try adjusting your filters' : 'Get started by creating a new invoice'}
                    </Typography.Text>
                  </Space>
                }
              />
            ),
          }}
        />
      )}
      {paying && (
        <PayModal
          count={paying.length}
          onClose={() => {
            setPaying(null);
          }}
          onPay={(date) => pay(paying, date)}
        />
      )}
    </div>
  );
}
