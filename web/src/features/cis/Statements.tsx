import type {
  Invoice,
  MailFailure,
  QueuedJob,
  StatementFilter,
  StatementGroup,
} from '@workspace/cis/contract';
import { plural } from '@workspace/rules';
import {
  DownloadOutlined,
  EditOutlined,
  FileDoneOutlined,
  MailOutlined,
  PrinterOutlined,
  RedoOutlined,
  SendOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Progress,
  Row,
  Segmented,
  Skeleton,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useDispatch } from 'react-redux';
import { Link } from 'react-router';
import { useToast } from '../../ui/feedback';
import { currentTaxMonth, taxMonthName, taxMonthTitle } from '@workspace/rules';
import {
  cisApi,
  useCorrectStatementMutation,
  useGenerateAllStatementsMutation,
  useGenerateStatementMutation,
  useIssueStatementMutation,
  useLazyJobQuery,
  useResendStatementEmailMutation,
  useStatementsQuery,
} from './api';
import { TaxMonthSelect } from './components/TaxMonthSelect';
import { DeadlineBanner } from './components/DeadlineBanner';
import { CisQueryError } from './components/CisQueryError';
import { StatCard } from '../../ui/StatCard';
import { InvoiceStatusBadge } from './components/StatusBadge';
import { useCis } from './context';
import { openInNewTab } from './download';
import { capitalise, pounds, ukDate, ukDateTime } from '../../ui/format';
import { errorMessage } from '../../ui/problem';

const FINISHED = new Set([
  'completed',
  'complete',
  'done',
  'succeeded',
  'success',
  'failed',
  'error',
  'cancelled',
]);

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    window.setTimeout(resolve, ms);
  });

function statementState(group: StatementGroup): { label: string; colour: string } {
  if (!group.statement) return { label: 'Pending generation', colour: 'orange' };
  // The subcontractor holds figures that are no longer right: a corrected statement is due.
  if (group.changedSinceIssue) return { label: 'Changed since issued', colour: 'red' };
  if (group.statement.issuedAt)
    return { label: `Issued (${capitalise(group.statement.issuedMethod)})`, colour: 'green' };
  return { label: 'Generated', colour: 'blue' };
}

/** How often the screen looks again while a resent statement email is on its way. */
const RESEND_POLL_MS = 3000;

/**
 * An issued statement's email that could not be delivered after its retries (the reason on hover), and, once resent,
 * whether it is on its way again or was delivered (docs/notifications.md "Resending a dead letter").
 */
function EmailFailureTag({ failure }: { failure: MailFailure }) {
  if (failure.state === 'resending')
    return (
      <Tooltip title={failure.resentAt ? `Resent ${ukDateTime(failure.resentAt)}` : undefined}>
        <Tag color="processing" data-testid="statement-email-resending">
          Resending email
        </Tag>
      </Tooltip>
    );
  if (failure.state === 'delivered')
    return (
      <Tooltip
        title={failure.deliveredAt ? `Resent and delivered ${ukDateTime(failure.deliveredAt)}` : undefined}
      >
        <Tag color="green" data-testid="statement-email-delivered">
          Email delivered
        </Tag>
      </Tooltip>
    );
  return (
    <Tooltip title={`${ukDateTime(failure.failedAt)}: ${failure.reason}`}>
      <Tag color="red" data-testid="statement-email-failed">
        Email not delivered
      </Tag>
    </Tooltip>
  );
}

const pdfUrl = (id: string) => `/api/cis/statements/${encodeURIComponent(id)}/pdf`;

/**
 * Without cis.pii.unmask the PDF is the staff copy (UTR masked, not for issue); Print issues the statement and opens
 * the subcontractor's copy, with the full UTR, for the person who printed it (ADR 0029).
 */
const STAFF_COPY_HINT = 'Staff copy: UTR masked, not for issue. Print gives the copy to hand over.';

/** /cis/statements: deadline, counters, filter, Generate All (a polled job) and the per-subcontractor list. */
export function Statements() {
  const { abilities } = useCis();
  const toast = useToast();
  const dispatch = useDispatch();
  const { modal } = App.useApp();
  const [filter, setFilter] = useState<StatementFilter>('all');
  const [taxMonth, setTaxMonth] = useState<string | undefined>(undefined);
  const [job, setJob] = useState<QueuedJob | null>(null);
  // While a resent email is on its way the screen looks again every few seconds, until it is delivered or failed.
  const [watchResends, setWatchResends] = useState(false);
  const { data, error, isLoading, isFetching } = useStatementsQuery(
    { taxMonth, filter },
    { pollingInterval: watchResends ? RESEND_POLL_MS : 0 },
  );
  const resending = data?.subcontractors.some((group) => group.emailFailure?.state === 'resending') ?? false;
  if (resending !== watchResends) setWatchResends(resending);
  const [resendEmail, resendState] = useResendStatementEmailMutation();
  const [generate, generateState] = useGenerateStatementMutation();
  const [generateAll] = useGenerateAllStatementsMutation();
  const [issue, issueState] = useIssueStatementMutation();
  const [correct, correctState] = useCorrectStatementMutation();
  const [fetchJob] = useLazyJobQuery();
  // Generating is what cis.stmt.issue allows (the service checks it), whatever the approve flag says.
  const canGenerate = abilities.canIssueStatements;
  const month = taxMonth ?? data?.period.label;

  const runGenerateAll = async () => {
    if (!month) return;
    if (data && data.counters.pendingGeneration === 0) {
      toast.info('No Pending Statements');
      return;
    }
    try {
      let current = (await generateAll({ taxMonth: month }).unwrap()).job;
      setJob(current);
      for (let attempt = 0; attempt < 300 && !FINISHED.has(current.status); attempt++) {
        await sleep(1000);
        current = (await fetchJob(current.id).unwrap()).job;
        setJob(current);
      }
      dispatch(cisApi.util.invalidateTags(['CisStatement', 'CisInvoice', 'CisDashboard']));
      const result = current.result;
      if (current.status === 'failed')
        toast.error(`Generation Failed: ${current.error ?? 'Unknown error occurred'}`);
      else if (!result || (result.generated === 0 && result.failed === 0))
        toast.info('No Pending Statements');
      else if (result.failed > 0)
        toast.warning(`Generated ${plural(result.generated, 'statement')}, ${result.failed} failed`);
      else toast.success(`Generated ${plural(result.generated, 'statement')}, 0 failed`);
    } catch (failure) {
      toast.error(`Generation Failed: ${errorMessage(failure)}`);
    } finally {
      setJob(null);
    }
  };

  const generateOne = async (group: StatementGroup) => {
    if (!month) return;
    try {
      await generate({ subcontractorId: group.subcontractorId, taxMonth: month }).unwrap();
      toast.success(`Statement generated for ${group.name}`);
    } catch (failure) {
      modal.error({ title: 'Generation Failed', content: errorMessage(failure) });
    }
  };

  const issueOne = async (group: StatementGroup, method: 'email' | 'portal' | 'print') => {
    if (!group.statement) return;
    try {
      const result = await issue({ id: group.statement.id, method }).unwrap();
      if (result.warning) toast.warning(result.warning);
      else toast.success(`Statement issued to ${group.name} by ${method}`);
      // Issued by print, the PDF is the subcontractor's copy (full UTR) for whoever printed it, audited.
      if (method === 'print') openInNewTab(pdfUrl(group.statement.id));
    } catch (failure) {
      toast.error(`Failed to issue statement: ${errorMessage(failure)}`);
    }
  };

  const resendOne = async (group: StatementGroup) => {
    if (!group.statement) return;
    try {
      await resendEmail(group.statement.id).unwrap();
      toast.success(`Statement email resent to ${group.email}`);
    } catch (failure) {
      toast.error(`Failed to resend the statement email: ${errorMessage(failure)}`);
    }
  };

  const correctOne = async (group: StatementGroup) => {
    if (!group.statement) return;
    try {
      await correct(group.statement.id).unwrap();
      toast.success(`Corrected statement ready for ${group.name}: issue it by email, portal or print`);
    } catch (failure) {
      toast.error(`Failed to correct statement: ${errorMessage(failure)}`);
    }
  };

  const columns: ColumnsType<StatementGroup> = [
    {
      title: 'Subcontractor',
      key: 'name',
      render: (_, group) => (
        <Space orientation="vertical" size={0}>
          <Link to={`/cis/subcontractors/${group.subcontractorId}`}>{group.name}</Link>
          <Typography.Text type="secondary">{group.utrMasked}</Typography.Text>
        </Space>
      ),
    },
    { title: 'Invoices', key: 'count', render: (_, group) => group.invoices.length },
    { title: 'Gross', key: 'gross', render: (_, group) => pounds(group.totals.grossP) },
    { title: 'Materials', key: 'materials', render: (_, group) => pounds(group.totals.materialsP) },
    { title: 'CIS Deducted', key: 'cis', render: (_, group) => pounds(group.totals.cisDeductionP) },
    {
      title: 'Statement',
      key: 'statement',
      render: (_, group) => {
        const state = statementState(group);
        return (
          <Space orientation="vertical" size={0}>
            <Tag color={state.colour}>{state.label}</Tag>
            {group.statement?.supersedes && <Tag color="purple">Corrected statement</Tag>}
            {group.emailFailure && <EmailFailureTag failure={group.emailFailure} />}
            {group.statement?.issuedAt && (
              <Typography.Text type="secondary">{ukDate(group.statement.issuedAt)}</Typography.Text>
            )}
          </Space>
        );
      },
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, group) => (
        <Space size={4} wrap>
          {!group.statement && canGenerate && (
            <Button
              size="small"
              icon={<FileDoneOutlined />}
              loading={
                generateState.isLoading &&
                generateState.originalArgs?.subcontractorId === group.subcontractorId
              }
              onClick={() => void generateOne(group)}
            >
              Generate
            </Button>
          )}
          {group.statement && group.changedSinceIssue && abilities.canIssueStatements && (
            <Button
              size="small"
              type="primary"
              icon={<EditOutlined />}
              loading={correctState.isLoading && correctState.originalArgs === group.statement.id}
              onClick={() => void correctOne(group)}
            >
              Correct statement
            </Button>
          )}
          {group.statement && group.emailFailure?.state === 'failed' && abilities.canIssueStatements && (
            <Tooltip
              title={group.email ? `Resend the statement email to ${group.email}` : 'No email address'}
            >
              <Button
                size="small"
                type="primary"
                icon={<RedoOutlined />}
                data-testid="statement-email-resend"
                disabled={!group.email}
                loading={resendState.isLoading && resendState.originalArgs === group.statement.id}
                onClick={() => void resendOne(group)}
              >
                Resend
              </Button>
            </Tooltip>
          )}
          {group.statement && !group.changedSinceIssue && abilities.canIssueStatements && (
            <>
              <Tooltip title={group.email ? `Email to ${group.email}` : 'No email address'}>
                <Button
                  size="small"
                  icon={<MailOutlined />}
                  disabled={!group.email}
                  loading={
                    issueState.isLoading &&
                    issueState.originalArgs?.id === group.statement.id &&
                    issueState.originalArgs.method === 'email'
                  }
                  onClick={() => void issueOne(group, 'email')}
                >
                  Email
                </Button>
              </Tooltip>
              <Button size="small" icon={<SendOutlined />} onClick={() => void issueOne(group, 'portal')}>
                Portal
              </Button>
              <Button size="small" icon={<PrinterOutlined />} onClick={() => void issueOne(group, 'print')}>
                Print
              </Button>
            </>
          )}
          {group.statement && (
            <Tooltip title={abilities.canUnmask ? undefined : STAFF_COPY_HINT}>
              <Button
                size="small"
                icon={<DownloadOutlined />}
                onClick={() => {
                  if (group.statement) openInNewTab(pdfUrl(group.statement.id));
                }}
              >
                Download PDF
              </Button>
            </Tooltip>
          )}
        </Space>
      ),
    },
  ];

  const invoiceColumns: ColumnsType<Invoice> = [
    {
      title: 'Invoice',
      key: 'number',
      render: (_, row) => <Link to={`/cis/invoices/${row.id}`}>{row.invoiceNumber}</Link>,
    },
    { title: 'Date', key: 'date', render: (_, row) => ukDate(row.invoiceDate) },
    { title: 'Gross', key: 'gross', render: (_, row) => pounds(row.amounts.grossP) },
    { title: 'Materials', key: 'materials', render: (_, row) => pounds(row.amounts.materialsP) },
    { title: 'CIS', key: 'cis', render: (_, row) => pounds(row.amounts.cisDeductionP) },
    {
      title: 'Paid',
      key: 'paid',
      render: (_, row) => (row.paymentDate ? ukDate(row.paymentDate) : 'Not paid'),
    },
    { title: 'Status', key: 'status', render: (_, row) => <InvoiceStatusBadge status={row.status} /> },
  ];

  if (isLoading) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (error || !data)
    return <CisQueryError error={error} prefix="Error loading statements: " action="view statements" />;

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <DeadlineBanner deadline={data.deadline} periodLabel={taxMonthTitle(data.period.label)} />
      <Row gutter={[16, 16]}>
        <Col xs={12} lg={6}>
          <StatCard title="Total Subcontractors" value={data.counters.totalSubcontractors} />
        </Col>
        <Col xs={12} lg={6}>
          <StatCard title="Pending Generation" value={data.counters.pendingGeneration} />
        </Col>
        <Col xs={12} lg={6}>
          <StatCard title="Generated" value={data.counters.generated} />
        </Col>
        <Col xs={12} lg={6}>
          <StatCard title="Issued" value={data.counters.issued} />
        </Col>
      </Row>
      <Card
        size="small"
        title={
          <Space wrap>
            <span>{`Statements for the ${taxMonthName(data.period.label)}`}</span>
            <TaxMonthSelect
              aria-label="Tax month"
              value={month}
              latest={currentTaxMonth()}
              onChange={setTaxMonth}
            />
          </Space>
        }
        extra={
          <Space wrap>
            <Segmented<StatementFilter>
              value={filter}
              onChange={setFilter}
              options={[
                { value: 'all', label: 'All' },
                { value: 'pending', label: 'Pending' },
                { value: 'generated', label: 'Generated' },
                { value: 'issued', label: 'Issued' },
              ]}
            />
            {canGenerate && (
              <Button
                type="primary"
                icon={<ThunderboltOutlined />}
                loading={job !== null}
                onClick={() => void runGenerateAll()}
              >
                Generate All
              </Button>
            )}
          </Space>
        }
      >
        {data.counters.changedSinceIssue > 0 && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="statements-changed"
            title={`${data.counters.changedSinceIssue} issued ${data.counters.changedSinceIssue === 1 ? 'statement has' : 'statements have'} changed since issue`}
            description="An invoice of this month was paid, cancelled or moved after the statement was issued: the subcontractor holds figures that are no longer right. Correct the statement and issue the corrected one."
          />
        )}
        {job && (
          <div style={{ marginBottom: 16 }} data-testid="job-progress">
            <Typography.Text>{`Generating statements (${job.status})`}</Typography.Text>
            <Progress percent={Math.round(job.progress)} status="active" />
          </div>
        )}
        <Table<StatementGroup>
          rowKey="subcontractorId"
          size="middle"
          loading={isFetching}
          columns={columns}
          dataSource={data.subcontractors}
          pagination={false}
          expandable={{
            expandedRowRender: (group) => (
              <Table<Invoice>
                rowKey="id"
                size="small"
                columns={invoiceColumns}
                dataSource={group.invoices}
                pagination={false}
              />
            ),
            rowExpandable: (group) => group.invoices.length > 0,
          }}
          locale={{ emptyText: 'No subcontractors with approved or paid invoices in this tax month' }}
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          Keep copies of payment and deduction statements for at least 6 years.
        </Typography.Paragraph>
      </Card>
    </Space>
  );
}
