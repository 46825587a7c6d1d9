import type { InviteResult, Subcontractor } from '@workspace/cis/contract';
import { plural } from '@workspace/rules';
import { DeleteOutlined, EditOutlined, EyeOutlined, InboxOutlined, SendOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Select, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useConfirm, useToast } from '../../ui/feedback';
import {
  useArchiveSubcontractorsMutation,
  useDeleteSubcontractorsMutation,
  useInviteSubcontractorMutation,
  useSubcontractorDuplicatesQuery,
  useSubcontractorsQuery,
  type SubcontractorFilters,
} from './api';
import { subcontractorStatuses, subcontractorTypes, useUrlFilter, useUrlSearch } from './components/filters';
import { DetailsIncompleteTag } from './components/DetailsIncomplete';
import { PortalLinkPanel } from './components/InviteModal';
import { MergeDuplicatesModal } from './components/MergeDuplicatesModal';
import { ListTable, RowAction, SelectionBar, StatCardRow } from '../../ui/ListPage';
import { CisQueryError } from './components/CisQueryError';
import { useCis } from './context';
import { capitalise } from '../../ui/format';
import { errorMessage } from '../../ui/problem';

function batchToast(
  toast: ReturnType<typeof useToast>,
  verb: string,
  result: { succeeded: string[]; failed: { error: string }[] },
) {
  if (result.failed.length === 0)
    toast.success(`${plural(result.succeeded.length, 'subcontractor')} ${verb}`);
  else
    toast.warning(
      `${plural(result.succeeded.length, 'subcontractor')} ${verb}, ${result.failed.length} failed: ${result.failed[0]?.error ?? ''}`,
    );
}

/** /cis/subcontractors: stat cards, filters, the table with row actions, bulk archive and delete. */
export function SubcontractorList() {
  const { abilities } = useCis();
  const navigate = useNavigate();
  const toast = useToast();
  const confirm = useConfirm();
  const search = useUrlSearch();
  const [status, setStatus] = useUrlFilter<SubcontractorFilters['status']>(
    'status',
    'all',
    subcontractorStatuses,
  );
  const [type, setType] = useUrlFilter<SubcontractorFilters['type']>('type', 'all', subcontractorTypes);
  const [selected, setSelected] = useState<string[]>([]);
  const [linkResult, setLinkResult] = useState<{ result: InviteResult; email: string } | null>(null);
  const { data, error, isLoading, isFetching } = useSubcontractorsQuery({ search, status, type });
  const [archive] = useArchiveSubcontractorsMutation();
  const [remove] = useDeleteSubcontractorsMutation();
  const [invite] = useInviteSubcontractorMutation();
  // Records sharing an identifier, stored before duplicates were refused: offered for merging (ADR 0039).
  const duplicates = useSubcontractorDuplicatesQuery(undefined, {
    skip: !abilities.canWriteSubcontractors,
  });
  const duplicateSets = duplicates.data?.groups ?? [];
  const [reviewing, setReviewing] = useState(false);
  const filtered = Boolean(search) || status !== 'all' || type !== 'all';
  const canWrite = abilities.canWriteSubcontractors;

  const archiveIds = async (ids: string[]) => {
    const ok = await confirm({
      title: 'Archive Subcontractors',
      message: `Archive ${plural(ids.length, 'subcontractor')}? Archived subcontractors cannot be used for new invoices.`,
      confirmText: 'Archive',
      style: 'warning',
    });
    if (!ok) return;
    try {
      batchToast(toast, 'archived', await archive(ids).unwrap());
      setSelected([]);
    } catch (failure) {
      toast.error(errorMessage(failure));
    }
  };

  const deleteIds = async (ids: string[]) => {
    const ok = await confirm({
      title: 'Delete Subcontractors',
      message: `Delete ${plural(ids.length, 'subcontractor')}?`,
      confirmText: 'Delete',
      style: 'danger',
    });
    if (!ok) return;
    try {
      batchToast(toast, 'deleted', await remove(ids).unwrap());
      setSelected([]);
    } catch (failure) {
      toast.error(errorMessage(failure));
    }
  };

  const inviteRow = async (row: Subcontractor) => {
    try {
      const result = await invite({ subcontractorId: row.id }).unwrap();
      if (result.emailSent) toast.success('Portal invitation sent successfully');
      else setLinkResult({ result, email: row.email });
    } catch (failure) {
      toast.error(errorMessage(failure, 'Failed to send invitation'));
    }
  };

  const columns: ColumnsType<Subcontractor> = [
    {
      title: 'Subcontractor',
      key: 'name',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <Link to={`/cis/subcontractors/${row.id}`}>{row.name}</Link>
          {row.companyNumber && <Typography.Text type="secondary">{row.companyNumber}</Typography.Text>}
        </Space>
      ),
    },
    { title: 'Type', key: 'type', render: (_, row) => capitalise(row.type) },
    {
      title: 'UTR / NINO',
      key: 'ids',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <span>{row.utrMasked}</span>
          {row.ninoMasked && <Typography.Text type="secondary">{row.ninoMasked}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: 'Verification',
      key: 'verification',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <span>{`${row.verification.rate}% - ${capitalise(row.verification.status)}`}</span>
          <Typography.Text type="secondary">
            {capitalise(row.verification.method) || (row.verification.verifiedDate ? '' : 'Not verified yet')}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: 'Contact',
      key: 'contact',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          {row.email && <span>{row.email}</span>}
          {row.phone && <Typography.Text type="secondary">{row.phone}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: 'Status',
      key: 'status',
      render: (_, row) => (
        <Space size={4} wrap>
          {row.archived || !row.active ? <Tag>Archived</Tag> : <Tag color="green">Active</Tag>}
          <DetailsIncompleteTag sub={row} />
        </Space>
      ),
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, row) => (
        <Space size={0}>
          <RowAction
            title="View details"
            icon={<EyeOutlined />}
            label={`View ${row.name}`}
            onClick={() => void navigate(`/cis/subcontractors/${row.id}`)}
          />
          {abilities.canInvite && row.email && !row.archived && (
            <RowAction
              title="Invite to portal"
              icon={<SendOutlined />}
              label={`Invite ${row.name} to portal`}
              onClick={() => void inviteRow(row)}
            />
          )}
          {canWrite && (
            <RowAction
              title="Edit"
              icon={<EditOutlined />}
              label={`Edit ${row.name}`}
              onClick={() => void navigate(`/cis/subcontractors/${row.id}/edit`)}
            />
          )}
          {canWrite && row.active && !row.archived && (
            <RowAction
              title="Archive"
              icon={<InboxOutlined />}
              label={`Archive ${row.name}`}
              onClick={() => void archiveIds([row.id])}
            />
          )}
        </Space>
      ),
    },
  ];

  return (
    <div>
      {canWrite && duplicateSets.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={
            duplicateSets.length === 1
              ? '1 set of subcontractors shares a UTR, National Insurance number or company number'
              : `${duplicateSets.length} sets of subcontractors share a UTR, National Insurance number or company number`
          }
          description="One person's payments are split across two CIS300 lines until the records are merged."
          action={
            <Button
              size="small"
              onClick={() => {
                setReviewing(true);
              }}
            >
              Review duplicates
            </Button>
          }
        />
      )}
      {reviewing && (
        <MergeDuplicatesModal
          groups={duplicateSets}
          onClose={() => {
            setReviewing(false);
          }}
        />
      )}
      <StatCardRow
        loading={isLoading}
        cards={[
          { title: 'Total', value: data?.stats.total ?? 0, span: { xs: 12, lg: 6 } },
          { title: 'Active', value: data?.stats.active ?? 0, span: { xs: 12, lg: 6 } },
          { title: 'Gross (0%)', value: data?.stats.gross ?? 0, span: { xs: 12, lg: 6 } },
          { title: 'Standard (20%)', value: data?.stats.standard ?? 0, span: { xs: 12, lg: 6 } },
        ]}
      />
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          aria-label="Status filter"
          value={status}
          onChange={setStatus}
          style={{ width: 160 }}
          options={[
            { value: 'all', label: 'All statuses' },
            { value: 'active', label: 'Active' },
            { value: 'archived', label: 'Archived' },
          ]}
        />
        <Select
          aria-label="Type filter"
          value={type}
          onChange={setType}
          style={{ width: 160 }}
          options={[
            { value: 'all', label: 'All types' },
            { value: 'individual', label: 'Individual' },
            { value: 'company', label: 'Company' },
            { value: 'partnership', label: 'Partnership' },
          ]}
        />
        <SelectionBar count={canWrite ? selected.length : 0}>
          <Button icon={<InboxOutlined />} onClick={() => void archiveIds(selected)}>
            Archive Selected
          </Button>
          <Button danger icon={<DeleteOutlined />} onClick={() => void deleteIds(selected)}>
            Delete Selected
          </Button>
        </SelectionBar>
      </Space>
      <ListTable<Subcontractor>
        loading={isLoading}
        skeletonRows={6}
        error={
          error ? (
            <CisQueryError
              error={error}
              prefix="Error loading subcontractors: "
              action="view subcontractors"
            />
          ) : null
        }
        fetching={isFetching}
        columns={columns}
        rows={data?.items ?? []}
        pagination={{ pageSize: 25, hideOnSinglePage: true }}
        selection={canWrite ? { selected, onChange: setSelected } : undefined}
        emptyTitle="No subcontractors found"
        emptyHint={filtered ? 'Try adjusting your filters' : 'Get started by adding a new subcontractor'}
      />
      <Modal
        open={linkResult !== null}
        title="Invitation Created"
        onCancel={() => {
          setLinkResult(null);
        }}
        footer={
          <Button
            type="primary"
            onClick={() => {
              setLinkResult(null);
            }}
          >
            Close
          </Button>
        }
      >
        {linkResult && <PortalLinkPanel result={linkResult.result} email={linkResult.email} />}
      </Modal>
    </div>
  );
}
