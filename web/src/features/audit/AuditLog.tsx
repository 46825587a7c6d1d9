import type { AuditEntryView, AuditVerifyResponse } from '@workspace/audit/contract';
import { plural } from '@workspace/rules';
import { DownloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import {
  Alert,
  AutoComplete,
  Button,
  DatePicker,
  Descriptions,
  Empty,
  Input,
  Select,
  Skeleton,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useDispatch } from 'react-redux';
import { useSearchParams } from 'react-router';
import type { Session } from '../../app/api';
import { AccessRestricted } from '../../ui/AccessRestricted';
import { UK_DATE_FORMAT } from '../../ui/DateField';
import { useToast } from '../../ui/feedback';
import { ukDateTime } from '../../ui/format';
import { errorMessage } from '../../ui/problem';
import { QueryError } from '../../ui/QueryError';
import { downloadFile } from '../cis/download';
import { actionName, suggestedActions } from './actions';
import {
  refreshAuditEntries,
  useAuditActorsQuery,
  useAuditEntriesQuery,
  useVerifyAuditChainMutation,
} from './api';
import {
  AUDIT_PAGE_SIZE,
  auditCsvUrl,
  auditFiltersOf,
  auditQueryOf,
  entryMatches,
  isFiltered,
  type FilterKey,
} from './filters';
import { actorName, sourceLabel } from './present';
import { AUDIT_READ, canReadAudit, readableModules, readsWholeTrail } from './scopes';
import { useAuditStream, type Arrival } from './useAuditStream';

/** What broke, in words, for each reason POST /v1/verify names. */
const BREAK_REASONS: Record<string, string> = {
  hash_mismatch: 'the entry was changed after it was recorded',
  prev_hash_mismatch: 'the entry does not follow the one recorded before it',
  reordered: 'entries are out of order',
  gap: 'an entry is missing',
  truncated: 'entries recorded after the last checkpoint are missing',
  checkpoint_mismatch: 'the chain differs from its signed checkpoint',
  bad_signature: 'a checkpoint’s signature is not valid',
};

function VerifyResult({ result, onClose }: { result: AuditVerifyResponse; onClose: () => void }) {
  if (result.ok)
    return (
      <Alert
        type="success"
        showIcon
        closable={{ onClose }}
        data-testid="verify-result"
        title="Audit chain verified: no entry has been changed, removed or reordered"
        description={`${plural(result.entries, 'entry', 'entries')} checked up to entry #${result.head.seq}${
          result.checkpoint
            ? `, matching the checkpoint signed at entry #${result.checkpoint.seq} (${ukDateTime(result.checkpoint.signedAt)})`
            : ''
        }. Checked ${ukDateTime(result.checkedAt)}.`}
      />
    );
  const broken = result.firstBreak;
  return (
    <Alert
      type="error"
      showIcon
      closable={{ onClose }}
      data-testid="verify-result"
      title={broken ? `Audit chain broken at entry #${broken.seq}` : 'The audit chain could not be verified'}
      description={
        broken
          ? `${BREAK_REASONS[broken.reason] ?? broken.reason}: ${broken.detail}. Checked ${ukDateTime(result.checkedAt)}.`
          : `Checked ${ukDateTime(result.checkedAt)}.`
      }
    />
  );
}

function EntryDetails({ entry }: { entry: AuditEntryView }) {
  const payload = Object.entries(entry.payload);
  return (
    <Descriptions size="small" column={1} bordered>
      <Descriptions.Item label="Entry">#{entry.seq}</Descriptions.Item>
      <Descriptions.Item label="Recorded">{ukDateTime(entry.recordedAt)}</Descriptions.Item>
      <Descriptions.Item label="Details">
        {payload.length === 0 ? (
          <Typography.Text type="secondary">None</Typography.Text>
        ) : (
          <Space orientation="vertical" size={0}>
            {payload.map(([key, value]) => (
              <span key={key}>
                <Typography.Text type="secondary">{key}: </Typography.Text>
                {value}
              </span>
            ))}
          </Space>
        )}
      </Descriptions.Item>
      <Descriptions.Item label="Source event">
        <Typography.Text code>{entry.sourceEventId}</Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="Hash">
        <Typography.Text code copyable>
          {entry.hash}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="Previous hash">
        <Typography.Text code>{entry.prevHash}</Typography.Text>
      </Descriptions.Item>
    </Descriptions>
  );
}

/**
 * /audit: the tenant's audit trail for holders of an audit read scope (docs/audit.md "The audit screen"): filters
 * by action, actor, target and date range kept in the address, pages of 25 newest first, the CSV of every matching
 * entry, live new entries, and Verify chain for holders of audit.read. Anyone else meets the Access Restricted page.
 */
export default function AuditLog({ session }: { session: Session }) {
  if (!canReadAudit(session.scopes))
    return (
      <AccessRestricted
        action="view the audit log"
        permission={AUDIT_READ}
        user={session.user.email}
        organisation={session.tenant.name}
      />
    );
  return <AuditLogPage session={session} />;
}

function AuditLogPage({ session }: { session: Session }) {
  const dispatch = useDispatch();
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const filters = auditFiltersOf(params);
  const query = { ...auditQueryOf(filters), page: filters.page, pageSize: AUDIT_PAGE_SIZE };
  const { data, error, isLoading, isFetching } = useAuditEntriesQuery(query);
  const { data: directory } = useAuditActorsQuery(undefined);
  const [verify, verifying] = useVerifyAuditChainMutation();
  const [verified, setVerified] = useState<AuditVerifyResponse | null>(null);
  const [arrived, setArrived] = useState(0);
  const [exporting, setExporting] = useState(false);
  const [actionDraft, setActionDraft] = useState<string | null>(null);
  const [targetDraft, setTargetDraft] = useState<string | null>(null);
  const modules = readableModules(session.scopes);
  const wholeTrail = readsWholeTrail(session.scopes);

  const people = useMemo(
    () => new Map((directory?.items ?? []).map((person) => [person.uid, person])),
    [directory],
  );

  const update = (changes: Partial<Record<FilterKey | 'page', string>>) => {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace: true },
    );
  };

  // A new entry on page 1 (newest first) shows at once; further back, a notice offers the newest.
  const onPage = filters.page;
  // Only what the filters select counts (the stream sends every new entry the reader may see).
  const onNew = (entries: Arrival[]) => {
    const count = entries.filter((entry) => entryMatches(entry, filters)).length;
    if (count === 0) return;
    if (onPage === 1) dispatch(refreshAuditEntries());
    else setArrived((shown) => shown + count);
  };
  useAuditStream(onNew);

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadFile(auditCsvUrl(filters), 'audit.csv');
    } catch (failure) {
      toast.error(`Export failed: ${errorMessage(failure)}`);
    } finally {
      setExporting(false);
    }
  };

  const runVerify = async () => {
    try {
      setVerified(await verify(undefined).unwrap());
    } catch (failure) {
      toast.error(`The chain could not be verified: ${errorMessage(failure)}`);
    }
  };

  const columns: ColumnsType<AuditEntryView> = [
    {
      title: 'Time',
      key: 'time',
      width: 170,
      render: (_, row) => (
        <Tooltip title={`Occurred ${row.occurredAt}`}>
          <span>{ukDateTime(row.occurredAt)}</span>
        </Tooltip>
      ),
    },
    {
      title: 'Action',
      key: 'action',
      render: (_, row) => {
        const name = actionName(row.action);
        return (
          <Space size={4} wrap>
            <Typography.Text code>{row.action}</Typography.Text>
            {name && <Typography.Text type="secondary">{name}</Typography.Text>}
          </Space>
        );
      },
    },
    {
      title: 'Module',
      key: 'module',
      render: (_, row) => <Tag>{row.module}</Tag>,
    },
    {
      title: 'Actor',
      key: 'actor',
      render: (_, row) => {
        const name = actorName(row.actorId, people);
        return name === row.actorId ? (
          <Typography.Text type="secondary">{row.actorId || '—'}</Typography.Text>
        ) : (
          <Tooltip title={row.actorId}>
            <span>{name}</span>
          </Tooltip>
        );
      },
    },
    {
      title: 'Target',
      key: 'target',
      render: (_, row) =>
        row.targetId ? (
          <Typography.Text style={{ maxWidth: 260 }} ellipsis={{ tooltip: row.targetId }}>
            {row.targetId}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      title: 'Source',
      key: 'source',
      render: (_, row) => sourceLabel(row.source),
    },
  ];

  const range: [dayjs.Dayjs | null, dayjs.Dayjs | null] = [
    filters.from ? dayjs(filters.from, 'YYYY-MM-DD') : null,
    filters.to ? dayjs(filters.to, 'YYYY-MM-DD') : null,
  ];
  const filtered = isFiltered(filters);
  const actorOptions = (directory?.items ?? []).map((person) => ({
    value: person.uid,
    label: person.displayName || person.fullName || person.email,
  }));
  // The services' own doings (a deadline notice) have no person to pick.
  actorOptions.push({ value: 'system', label: actorName('system', people) });
  if (filters.actorId && filters.actorId !== 'system' && !people.has(filters.actorId))
    actorOptions.push({ value: filters.actorId, label: actorName(filters.actorId, people) });

  return (
    <div data-testid="audit-log">
      <Space style={{ width: '100%', justifyContent: 'space-between', flexWrap: 'wrap' }} align="start">
        <div>
          <Typography.Title level={2} style={{ marginBottom: 4 }}>
            Audit log
          </Typography.Title>
          <Typography.Paragraph type="secondary">
            {modules === 'all'
              ? `Every recorded action in ${session.tenant.name}, newest first.`
              : `The ${modules.map((module) => module.toUpperCase()).join(' and ')} entries of ${session.tenant.name}, newest first.`}
          </Typography.Paragraph>
        </div>
        <Space wrap>
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportCsv()}>
            Export CSV
          </Button>
          {wholeTrail && (
            <Button
              icon={<SafetyCertificateOutlined />}
              loading={verifying.isLoading}
              onClick={() => void runVerify()}
            >
              Verify chain
            </Button>
          )}
        </Space>
      </Space>
      {verified && (
        <div style={{ marginBottom: 16 }}>
          <VerifyResult
            result={verified}
            onClose={() => {
              setVerified(null);
            }}
          />
        </div>
      )}
      {arrived > 0 && (
        <Alert
          style={{ marginBottom: 16 }}
          type="info"
          showIcon
          data-testid="new-entries"
          title={`${plural(arrived, 'new entry', 'new entries')} since this page was loaded`}
          action={
            <Button
              size="small"
              onClick={() => {
                setArrived(0);
                update({ page: '' });
                dispatch(refreshAuditEntries());
              }}
            >
              Show newest
            </Button>
          }
        />
      )}
      <Space wrap style={{ marginBottom: 16 }}>
        <AutoComplete
          aria-label="Action filter"
          placeholder="Action"
          allowClear
          style={{ width: 240 }}
          popupMatchSelectWidth={360}
          value={actionDraft ?? filters.action}
          options={suggestedActions(modules).map((value) => {
            const name = actionName(value);
            return { value, label: name ? `${value} (${name})` : value };
          })}
          showSearch={{
            filterOption: (input, option) =>
              (option?.value ?? '').toLowerCase().includes(input.toLowerCase()),
          }}
          onChange={(value: string) => {
            setActionDraft(value);
            if (!value) update({ action: '' });
          }}
          onSelect={(value: string) => {
            setActionDraft(null);
            update({ action: value });
          }}
          onBlur={() => {
            if (actionDraft !== null) update({ action: actionDraft.trim() });
            setActionDraft(null);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && actionDraft !== null) {
              update({ action: actionDraft.trim() });
              setActionDraft(null);
            }
          }}
        />
        <Select
          aria-label="Actor filter"
          placeholder="Actor"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ width: 220 }}
          value={filters.actorId || undefined}
          options={actorOptions}
          onChange={(value: string | undefined) => {
            update({ actorId: value ?? '' });
          }}
        />
        <Input.Search
          aria-label="Target filter"
          placeholder="Target id"
          allowClear
          style={{ width: 240 }}
          value={targetDraft ?? filters.targetId}
          onChange={(event) => {
            setTargetDraft(event.target.value);
            if (!event.target.value) {
              setTargetDraft(null);
              update({ targetId: '' });
            }
          }}
          onSearch={(value) => {
            setTargetDraft(null);
            update({ targetId: value.trim() });
          }}
        />
        <DatePicker.RangePicker
          aria-label="Date range"
          format={UK_DATE_FORMAT}
          placeholder={['From', 'To']}
          allowEmpty={[true, true]}
          value={range}
          onChange={(dates) => {
            update({
              from: dates?.[0]?.format('YYYY-MM-DD') ?? '',
              to: dates?.[1]?.format('YYYY-MM-DD') ?? '',
            });
          }}
        />
        {filtered && (
          <Button
            type="link"
            onClick={() => {
              setActionDraft(null);
              setTargetDraft(null);
              update({ action: '', actorId: '', targetId: '', from: '', to: '' });
            }}
          >
            Clear filters
          </Button>
        )}
      </Space>
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 8 }} data-testid="audit-loading" />
      ) : error ? (
        <QueryError
          session={session}
          module="audit"
          error={error}
          prefix="Error loading the audit log: "
          action="view the audit log"
        />
      ) : (
        <Table<AuditEntryView>
          rowKey="id"
          size="middle"
          // On a phone the table scrolls inside its frame; the page itself never scrolls sideways.
          scroll={{ x: 'max-content' }}
          loading={isFetching}
          columns={columns}
          dataSource={data?.items ?? []}
          expandable={{ expandedRowRender: (entry) => <EntryDetails entry={entry} /> }}
          pagination={{
            current: data?.page ?? filters.page,
            pageSize: data?.pageSize ?? AUDIT_PAGE_SIZE,
            total: data?.total ?? 0,
            showTotal: (total) => plural(total, 'entry', 'entries'),
            hideOnSinglePage: true,
            showSizeChanger: false,
            onChange: (page) => {
              if (page === 1) setArrived(0);
              update({ page: page === 1 ? '' : String(page) });
            },
          }}
          locale={{
            emptyText: (
              <Empty
                description={
                  <Space orientation="vertical" size={0}>
                    <Typography.Text strong>No audit entries found</Typography.Text>
                    <Typography.Text type="secondary">
                      {filtered
                        ? 'Try adjusting your filters'
                        : 'Actions are recorded here as people use the workspace'}
                    </Typography.Text>
                  </Space>
                }
              />
            ),
          }}
        />
      )}
    </div>
  );
}
