import type { DuplicateGroups, Subcontractor } from '@workspace/cis/contract';
import { Alert, Button, Card, Modal, Radio, Space, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { useToast } from '../../../ui/feedback';
import { ukDate } from '../../../ui/format';
import { errorMessage } from '../../../ui/problem';
import { useMergeSubcontractorsMutation } from '../api';

type Group = DuplicateGroups['groups'][number];

/** One set of records sharing an identifier: the record to keep is picked, the others are merged into it. */
function DuplicateSet({ group, onMerged }: { group: Group; onMerged: () => void }) {
  const toast = useToast();
  const [keepId, setKeepId] = useState(group.subcontractors[0]?.id ?? '');
  const [error, setError] = useState<string | null>(null);
  const [merge, { isLoading }] = useMergeSubcontractorsMutation();
  const keep = group.subcontractors.find((sub) => sub.id === keepId);
  const others = group.subcontractors.filter((sub) => sub.id !== keepId);

  const mergeAll = async () => {
    setError(null);
    try {
      let moved = 0;
      for (const other of others)
        moved += (await merge({ keepId, mergeId: other.id }).unwrap()).invoicesMoved;
      toast.success(`Merged into ${keep?.name ?? 'the record kept'}: ${moved} invoice(s) moved`);
      onMerged();
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to merge the subcontractors'));
    }
  };

  const describe = (sub: Subcontractor) =>
    [sub.email, sub.utrMasked && `UTR ${sub.utrMasked}`, `added ${ukDate(sub.createdAt)}`]
      .filter(Boolean)
      .join(' · ');

  return (
    <Card size="small" title={`Same ${group.label}`} data-testid="duplicate-set">
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Text>Choose the record to keep:</Typography.Text>
        <Radio.Group
          value={keepId}
          onChange={(event) => {
            setKeepId(String(event.target.value));
          }}
        >
          <Space orientation="vertical">
            {group.subcontractors.map((sub) => (
              <Radio key={sub.id} value={sub.id} aria-label={`Keep ${sub.name}`}>
                <Link to={`/cis/subcontractors/${sub.id}`}>{sub.name}</Link>{' '}
                <Typography.Text type="secondary">{describe(sub)}</Typography.Text>
              </Radio>
            ))}
          </Space>
        </Radio.Group>
        <Typography.Text type="secondary">
          {others.map((sub) => sub.name).join(', ')}: invoices, statements and portal access move to{' '}
          {keep?.name}; the record is archived with a note.
        </Typography.Text>
        {error && <Alert type="error" showIcon title={error} />}
        <Button type="primary" loading={isLoading} onClick={() => void mergeAll()}>
          Merge into {keep?.name}
        </Button>
      </Space>
    </Card>
  );
}

/** 'Review duplicates': the sets of live subcontractors sharing a UTR, NINO or company number, each mergeable. */
export function MergeDuplicatesModal({ groups, onClose }: { groups: Group[]; onClose: () => void }) {
  const [done, setDone] = useState<string[]>([]);
  const key = (group: Group) => group.subcontractors.map((sub) => sub.id).join(',');
  const open = groups.filter((group) => !done.includes(key(group)));
  return (
    <Modal
      open
      title="Duplicate subcontractors"
      onCancel={onClose}
      footer={<Button onClick={onClose}>Close</Button>}
      width={720}
    >
      <Space orientation="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Paragraph>
          These records share an identifier, so one person&apos;s payments are split across two lines of the
          CIS300. Merge each set into one record.
        </Typography.Paragraph>
        {open.length === 0 && <Alert type="success" showIcon title="No duplicates left" />}
        {open.map((group) => (
          <DuplicateSet
            key={key(group)}
            group={group}
            onMerged={() => {
              setDone((previous) => [...previous, key(group)]);
            }}
          />
        ))}
      </Space>
    </Modal>
  );
}
