import type { CisReturn, ReturnLine, TaxMonthPeriod, Validation } from '@workspace/cis/contract';
import { formatLongDate, taxMonthName, taxMonthTitle } from '@workspace/rules';
import {
  CloudUploadOutlined,
  DownloadOutlined,
  FileSyncOutlined,
  FileTextOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Empty,
  Skeleton,
  Space,
  Table,
  Tooltip,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useToast, useConfirm } from '../../ui/feedback';
import {
  useCompileReturnMutation,
  useCurrentReturnQuery,
  useReturnActionMutation,
  useReturnPeriodsQuery,
} from './api';
import { CisQueryError } from './components/CisQueryError';
import { ReturnStatusBadge } from './components/StatusBadge';
import { useCis } from './context';
import { downloadFile } from './download';
import { PeriodHistory } from './returns/PeriodHistory';
import { PeriodPicker } from './returns/PeriodPicker';
import { PeriodStanding } from './returns/PeriodStanding';
import { pounds, ukDate } from '../../ui/format';
import { errorMessage, fieldErrors } from '../../ui/problem';
import { ReturnChanges } from './returns/ReturnChanges';
import { SubmitReturnDialog } from './returns/SubmitReturnDialog';
import { CIS300_NEEDS_UNMASK, SubmittedReturn } from './returns/SubmittedReturn';

function IssueList({ issues }: { issues: string[] }) {
  return (
    <ul style={{ margin: 0, paddingInlineStart: 18 }}>
      {issues.map((issue) => (
        <li key={issue}>{issue}</li>
      ))}
    </ul>
  );
}

/** The draft validity check: 'Return validated successfully' or 'Validation Issues:' with the list. */
function ValidationResult({ validation }: { validation: Validation }) {
  if (validation.valid && validation.issues.length === 0)
    return (
      <Alert type="success" showIcon title="Return validated successfully" data-testid="return-validation" />
    );
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="return-validation"
      title="Validation Issues:"
      description={<IssueList issues={validation.issues} />}
    />
  );
}

const lineColumns: ColumnsType<ReturnLine> = [
  { title: 'Subcontractor', dataIndex: 'name', key: 'name' },
  {
    title: 'UTR / NINO',
    key: 'ids',
    render: (_, line) => [line.utrMasked, line.ninoMasked].filter(Boolean).join(' / ') || '-',
  },
  { title: 'Verification', key: 'ref', render: (_, line) => line.verificationRef },
  { title: 'Gross', key: 'gross', render: (_, line) => pounds(line.grossP) },
  { title: 'Materials', key: 'materials', render: (_, line) => pounds(line.materialsP) },
  { title: 'CIS Deducted', key: 'cis', render: (_, line) => pounds(line.cisDeductedP) },
  { title: 'Rate', key: 'rate', render: (_, line) => `${line.cisRate}%` },
  { title: 'Invoices', dataIndex: 'invoiceCount', key: 'invoices' },
  {
    title: 'Statement',
    key: 'statement',
    render: (_, line) => (line.statementsIssued ? 'Issued' : 'Not issued'),
  },
];

/**
 * /cis/returns: the return of the month in view (`?month=YYYY-MM`; it opens on the return that is due) with compile,
 * submit, export and (testing) unlock; every other month since the module was switched on under Return History.
 */
export function Returns() {
  const { abilities, testingTools } = useCis();
  const { modal } = App.useApp();
  const confirm = useConfirm();
  const toast = useToast();
  const periods = useReturnPeriodsQuery(undefined);
  const [search, setSearch] = useSearchParams();
  // The return due when the page opened stays in view after it is submitted (the month due then moves on).
  const [openedOn, setOpenedOn] = useState<string>();
  if (!openedOn && periods.data) setOpenedOn(periods.data.dueTaxMonth);
  const inView = search.get('month') ?? openedOn ?? periods.data?.dueTaxMonth;
  // Without the period list (still loading, or failed) the month in progress is shown.
  const current = useCurrentReturnQuery(inView, { skip: periods.isLoading });
  const standing = periods.data?.periods.find((period) => period.label === inView);
  const openMonth = (taxMonth: string) => {
    setSearch({ month: taxMonth });
  };
  const [compile, compileState] = useCompileReturnMutation();
  const [act, actState] = useReturnActionMutation();
  const canCompile = abilities.canCompile || abilities.canSubmit;
  // Submit asks for the declarations in its own dialog (issue 13), not a bare "Are you sure?".
  const [submitting, setSubmitting] = useState<CisReturn | null>(null);

  const compileCurrent = async () => {
    const period = current.data?.period;
    if (!period) {
      modal.error({ title: 'Unable to Compile', content: 'Current tax month is not available' });
      return;
    }
    try {
      const result = await compile(period.label).unwrap();
      if (!result.validation.valid && result.validation.issues.length > 0)
        modal.warning({
          title: 'Validation Issues',
          content: <IssueList issues={result.validation.issues} />,
        });
      else
        modal.success({
          title: 'Return Compiled Successfully',
          content: `${result.return.totals.subcontractors} subcontractors included.`,
        });
    } catch (failure) {
      const issues = Object.values(fieldErrors(failure));
      if (issues.length > 0)
        modal.warning({ title: 'Validation Issues', content: <IssueList issues={issues} /> });
      else
        modal.error({
          title: 'Compilation Failed',
          content: errorMessage(failure, 'Unknown error occurred'),
        });
    }
  };

  const submit = (ret: CisReturn) => {
    setSubmitting(ret);
  };

  const unlock = async (ret: CisReturn) => {
    const ok = await confirm({
      title: 'Unlock for Testing',
      message: 'This is for testing only. Unlock this return?',
      confirmText: 'Unlock',
      style: 'warning',
    });
    if (!ok) return;
    try {
      await act({ id: ret.id, action: 'unlock' }).unwrap();
      modal.success({
        title: 'Return Unlocked',
        content: 'Return unlocked for testing. You can now recompile or edit it.',
      });
    } catch {
      modal.error({ title: 'Unlock Failed', content: 'Failed to unlock return' });
    }
  };

  const exportCsv = (ret: CisReturn | null) => {
    if (!ret || ret.lines.length === 0) {
      modal.error({ title: 'Export Failed', content: 'No data to export' });
      return;
    }
    downloadFile(
      `/api/cis/returns/${encodeURIComponent(ret.id)}/export.csv`,
      `cis-return-${ret.id}.csv`,
    ).catch((error: unknown) => {
      modal.error({
        title: 'Export Failed',
        content: error instanceof Error ? error.message : 'No data to export',
      });
    });
  };

  const downloadXml = (ret: CisReturn) => {
    downloadFile(`/api/cis/returns/${encodeURIComponent(ret.id)}/cis300.xml`, `cis300-${ret.id}.xml`).catch(
      (error: unknown) => {
        toast.error(error instanceof Error ? error.message : 'Download failed');
      },
    );
  };

  const returnButtons = (ret: CisReturn, includeSubmit: boolean) => (
    <Space wrap>
      {includeSubmit && !ret.locked && abilities.canSubmit && (
        // No return before its month ends (issue 13; the service refuses it too).
        <Tooltip
          title={
            standing?.status === 'in_progress'
              ? `The month has not ended: its return can be submitted from ${formatLongDate(standing.submittableFrom)}`
              : undefined
          }
        >
          <Button
            type="primary"
            icon={<CloudUploadOutlined />}
            disabled={standing?.status === 'in_progress'}
            loading={actState.isLoading && actState.originalArgs?.action === 'submit'}
            onClick={() => {
              submit(ret);
            }}
          >
            Submit Return
          </Button>
        </Tooltip>
      )}
      {abilities.canExport && (
        <Button
          icon={<DownloadOutlined />}
          onClick={() => {
            exportCsv(ret);
          }}
        >
          Export CSV
        </Button>
      )}
      {/* The current return's document is in its submitted panel. */}
      {!includeSubmit && abilities.canSubmit && (ret.hasCis300 || ret.status === 'submitted') && (
        // The document carries every UTR and NINO in clear: the service also asks for cis.pii.unmask (ADR 0029).
        <Tooltip title={abilities.canUnmask ? undefined : CIS300_NEEDS_UNMASK}>
          <Button
            icon={<FileTextOutlined />}
            disabled={!abilities.canUnmask}
            onClick={() => {
              downloadXml(ret);
            }}
          >
            Download CIS300 XML
          </Button>
        </Tooltip>
      )}
      {ret.locked && testingTools && abilities.canSubmit && (
        <Button danger icon={<UnlockOutlined />} onClick={() => void unlock(ret)}>
          Unlock (Testing)
        </Button>
      )}
    </Space>
  );

  if (periods.isLoading || current.isLoading) return <Skeleton active paragraph={{ rows: 10 }} />;
  if (current.error || !current.data)
    return <CisQueryError error={current.error} prefix="Error loading returns: " action="view returns" />;

  // The screen also survives an answer without a period (cis.md: 'Unable to determine current tax month').
  const { validation } = current.data;
  const period = current.data.period as TaxMonthPeriod | undefined;
  const ret = current.data.return;

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      {periods.data && period && (
        <PeriodPicker periods={periods.data.periods} value={period.label} onChange={openMonth} />
      )}
      <Card
        title={period ? `Return for the ${taxMonthName(period.label)}` : 'Current Tax Month'}
        size="small"
        data-testid="current-return"
        extra={
          // Compile Return stays offered without a tax month: it then answers 'Unable to Compile'.
          (period || (!ret && canCompile)) && (
            <Space wrap>
              {!ret && canCompile && (
                <Button
                  type="primary"
                  icon={<FileSyncOutlined />}
                  loading={compileState.isLoading}
                  onClick={() => void compileCurrent()}
                >
                  Compile Return
                </Button>
              )}
              {period && ret && !ret.locked && canCompile && (
                <Button
                  icon={<FileSyncOutlined />}
                  loading={compileState.isLoading}
                  onClick={() => void compileCurrent()}
                >
                  Recompile
                </Button>
              )}
              {period && ret && returnButtons(ret, true)}
            </Space>
          )
        }
      >
        {!period ? (
          <Empty description="Unable to determine current tax month" />
        ) : (
          <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
            <Descriptions column={{ xs: 1, md: 2, xl: 4 }} size="small" bordered>
              <Descriptions.Item label="Period">{taxMonthTitle(period.label)}</Descriptions.Item>
              <Descriptions.Item label="Filing Deadline">{ukDate(period.deadlines.filing)}</Descriptions.Item>
              <Descriptions.Item label="Payment Deadline">
                {ukDate(period.deadlines.payment)}
              </Descriptions.Item>
              <Descriptions.Item label="Status">
                {ret ? (
                  <ReturnStatusBadge status={ret.status} displayStatus={ret.displayStatus} />
                ) : (
                  'Not compiled'
                )}
              </Descriptions.Item>
              {ret && (
                <>
                  <Descriptions.Item label="Subcontractors">{ret.totals.subcontractors}</Descriptions.Item>
                  <Descriptions.Item label="Total CIS Deducted">
                    {pounds(ret.totals.cisDeductedP)}
                  </Descriptions.Item>
                  <Descriptions.Item label="Total Gross">{pounds(ret.totals.grossP)}</Descriptions.Item>
                </>
              )}
            </Descriptions>
            {standing && periods.data && <PeriodStanding period={standing} today={periods.data.today} />}
            {!ret && <Empty description="No return compiled for this tax month" />}
            {ret && (ret.locked || ret.amendmentOf) && <ReturnChanges taxMonth={ret.taxMonth} />}
            {ret?.locked && <SubmittedReturn ret={ret} />}
            {ret && validation && !ret.locked && <ValidationResult validation={validation} />}
            {ret && ret.lines.length > 0 && (
              <Table<ReturnLine>
                rowKey="subcontractorId"
                size="small"
                columns={lineColumns}
                dataSource={ret.lines}
                pagination={false}
              />
            )}
          </Space>
        )}
      </Card>
      {periods.error ? (
        <CisQueryError error={periods.error} prefix="Error loading returns: " action="view returns" />
      ) : (
        periods.data && (
          <PeriodHistory
            periods={periods.data.periods}
            inView={period?.label ?? periods.data.currentTaxMonth}
            activeSince={periods.data.activeSince}
            onOpen={openMonth}
          />
        )
      )}
      <SubmitReturnDialog
        ret={submitting}
        onClose={() => {
          setSubmitting(null);
        }}
        onSubmitted={() => {
          modal.success({ title: 'Return Submitted', content: 'Return submitted successfully' });
        }}
      />
    </Space>
  );
}
