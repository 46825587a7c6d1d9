import type { Invoice } from '@workspace/cis/contract';
import { plural, taxMonthTitle } from '@workspace/rules';
import {
  CheckOutlined,
  CloseOutlined,
  DeleteOutlined,
  DollarOutlined,
  EditOutlined,
  EyeOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { Button, Select, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useConfirm, useToast } from '../../ui/feedback';
import {
  useBulkInvoicesMutation,
  useInvoiceActionMutation,
  useInvoicesQuery,
  type InvoiceFilters,
  type InvoicePeriod,
} from './api';
import {
  INVOICE_PAGE_SIZE,
  invoiceListQuery,
  invoicePeriods,
  invoiceStatuses,
  listPeriodOptions,
  useUrlFilter,
  useUrlSearch,
} from './components/filters';
import { invoiceAllows, statementPending } from './components/invoiceActions';
import { PayModal } from './components/PayModal';
import { RejectInvoiceModal } from './components/RejectInvoiceModal';
import { withSubmittedReturnWarning } from './components/submittedReturn';
import { ListTable, RowAction, SelectionBar, StatCardRow } from '../../ui/ListPage';
import { CisQueryError } from './components/CisQueryError';
import { InvoiceStatusBadge } from './components/StatusBadge';
import { useInvoiceStream } from './components/useInvoiceStream';
import { useCis } from './context';
import { MATERIALS_WARNING_PERCENT, materialsAtLeastPercent } from './domain';
import { pounds, ukDate } from '../../ui/format';
import { errorMessage } from '../../ui/problem';

/** /cis/invoices: filters, summary cards, the table with row and bulk actions, pagination, live updates. */
export function InvoiceList() {
  const { abilities } = useCis();
  const navigate = useNavigate();
  const toast = useToast();
  const confirm = useConfirm();
  const search = useUrlSearch();
  const [params, setParams] = useSearchParams();
  const [status, setStatus] = useUrlFilter<InvoiceFilters['status']>('status', 'all', invoiceStatuses);
  const [period, setPeriod] = useUrlFilter<InvoicePeriod>('period', 'all', invoicePeriods);
  const query = invoiceListQuery(params);
  const { page } = query;
  const [selected, setSelected] = useState<string[]>([]);
  const [paying, setPaying] = useState<string[] | null>(null);
  const [rejecting, setRejecting] = useState<Invoice | null>(null);
  const { data, error, isLoading, isFetching } = useInvoicesQuery(query);
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

  const approve = async (invoice: Invoice) => {
    try {
      await act({ id: invoice.id, action: 'approve' }).unwrap();
      toast.success(`Invoice ${invoice.invoiceNumber} approved`);
    } catch (failure) {
      toast.error(errorMessage(failure));
    }
  };

  const pay = async (ids: string[], paymentDate: string) => {
    try {
      // A payment into a month whose return is submitted: the service's warning first, then on if the user says so.
      const done = await withSubmittedReturnWarning(confirm, (confirmSubmittedReturn) => {
        const confirmed = confirmSubmittedReturn ? { confirmSubmittedReturn } : {};
        return ids.length === 1 && ids[0]
          ? act({ id: ids[0], action: 'pay', paymentDate, ...confirmed }).unwrap()
          : bulk({ action: 'pay', ids, paymentDate, ...confirmed }).unwrap();
      });
      if (!done) return;
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
        message: `Delete ${plural(selected.length, 'invoice')}?`,
        confirmText: 'Delete',
        style: 'danger',
      });
      if (!ok) return;
    }
    try {
      const result = await bulk({ action, ids: selected }).unwrap();
      if (result.succeeded.length > 0)
        toast.success(
          `${plural(result.succeeded.length, 'invoice')} ${action === 'approve' ? 'approved' : 'deleted'}`,
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
          <Typography.Text type="secondary">{row.piiMasked.utrMasked}</Typography.Text>
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
          <Typography.Text type="secondary">{`${row.cisRate}%`}</Typography.Text>
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
            <Typography.Text type="secondary">
              {row.taxMonth ? taxMonthTitle(row.taxMonth) : ''}
            </Typography.Text>
          </Space>
        ) : (
          <Typography.Text type="secondary">Not paid</Typography.Text>
        ),
    },
    {
      title: 'Status',
      key: 'status',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <InvoiceStatusBadge status={row.status} />
          {row.rejection && (
            <Typography.Text
              type="secondary"
              ellipsis={{ tooltip: row.rejection.reason }}
              style={{ maxWidth: 220 }}
            >
              {row.rejection.reason}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, row) => (
        <Space size={0}>
          <RowAction
            title="View"
            icon={<EyeOutlined />}
            label={`View ${row.invoiceNumber}`}
            onClick={() => void navigate(`/cis/invoices/${row.id}`)}
          />
          {invoiceAllows(row, 'edit', abilities) && (
            <RowAction
              title="Edit"
              icon={<EditOutlined />}
              label={`Edit ${row.invoiceNumber}`}
              onClick={() => void navigate(`/cis/invoices/${row.id}/edit`)}
            />
          )}
          {invoiceAllows(row, 'approve', abilities) && (
            <RowAction
              title="Approve"
              icon={<CheckOutlined />}
              label={`Approve ${row.invoiceNumber}`}
              onClick={() => void approve(row)}
            />
          )}
          {invoiceAllows(row, 'reject', abilities) && (
            <RowAction
              title="Reject"
              danger
              icon={<CloseOutlined />}
              label={`Reject ${row.invoiceNumber}`}
              onClick={() => {
                setRejecting(row);
              }}
            />
          )}
          {invoiceAllows(row, 'pay', abilities) && (
            <RowAction
              title="Mark Paid"
              icon={<DollarOutlined />}
              label={`Mark ${row.invoiceNumber} paid`}
              onClick={() => {
                setPaying([row.id]);
              }}
            />
          )}
        </Space>
      ),
    },
  ];

  const summary = data?.summary;
  return (
    <div>
      <StatCardRow
        loading={isLoading}
        cards={[
          { title: 'Total', value: summary?.total ?? 0, span: { xs: 12, md: 8, xl: 4 } },
          { title: 'Draft', value: summary?.draft ?? 0, span: { xs: 12, md: 8, xl: 5 } },
          { title: 'Approved', value: summary?.approved ?? 0, span: { xs: 12, md: 8, xl: 5 } },
          {
            title: 'This Month CIS',
            value: pounds(summary?.thisMonthCisP ?? 0),
            span: { xs: 12, md: 12, xl: 5 },
          },
          {
            title: 'Pending Statements',
            value: summary?.pendingStatements ?? 0,
            span: { xs: 24, md: 12, xl: 5 },
          },
        ]}
      />
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          aria-label="Status filter"
          value={status}
          onChange={setStatus}
          style={{ width: 170 }}
          options={[
            { value: 'all', label: 'All statuses' },
            { value: 'draft', label: 'Draft' },
            { value: 'portal_draft', label: 'Portal Pending' },
            { value: 'approved', label: 'Approved' },
            { value: 'paid', label: 'Paid' },
            { value: 'cancelled', label: 'Cancelled' },
            { value: 'rejected', label: 'Rejected' },
          ]}
        />
        <Select
          aria-label="Period filter"
          value={period}
          onChange={setPeriod}
          style={{ width: 170 }}
          options={listPeriodOptions(period)}
        />
        <SelectionBar count={selected.length}>
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
        </SelectionBar>
      </Space>
      <ListTable<Invoice>
        loading={isLoading}
        skeletonRows={8}
        skeletonTestId="invoices-loading"
        error={
          error ? (
            <CisQueryError error={error} prefix="Error loading invoices: " action="view invoices" />
          ) : null
        }
        fetching={isFetching}
        columns={columns}
        rows={data?.items ?? []}
        selection={abilities.canApprove ? { selected, onChange: setSelected } : undefined}
        pagination={{
          current: data?.page ?? page,
          pageSize: data?.pageSize ?? INVOICE_PAGE_SIZE,
          total: data?.total ?? 0,
          showTotal: (total) =>
            data?.totalCapped ? `${total.toLocaleString('en-GB')}+ invoices` : plural(total, 'invoice'),
          hideOnSinglePage: true,
          showSizeChanger: false,
          onChange: setPage,
        }}
        emptyTitle="No invoices found"
        emptyHint={filtered ? 'Try adjusting your filters' : 'Get started by creating a new invoice'}
      />
      {paying && (
        <PayModal
          count={paying.length}
          onClose={() => {
            setPaying(null);
          }}
          onPay={(date) => pay(paying, date)}
        />
      )}
      {rejecting && (
        <RejectInvoiceModal
          invoice={rejecting}
          onClose={() => {
            setRejecting(null);
          }}
        />
      )}
    </div>
  );
}
