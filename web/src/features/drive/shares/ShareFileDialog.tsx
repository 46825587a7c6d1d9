import { Alert, Button, Checkbox, Empty, Input, List, Modal, Space, Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useSessionQuery } from '../../../app/api';
import { useToast } from '../../../ui/feedback';
import { useColleaguesQuery, useShareAbilitiesQuery, useShareFileWithMutation } from './api';
import {
  emptyCandidatesText,
  shareCandidates,
  shareWithLabel,
  usersAvailable,
  usersSelected,
} from './colleagues';

export const SHARE_FAILED = 'Failed to share file. Please try again.';
export const NO_SHARE_PERMISSION = "You don't have permission to share files";
export const CHECKING_PERMISSIONS = 'Checking permissions, please wait...';

/**
 * Share File (drive.md §2): pick colleagues (never yourself) and share the file with them. Only for a user who may
 * share files; while the permissions load it says so.
 */
export function ShareFileDialog({
  file,
  open,
  onClose,
}: {
  file: { id: string; name: string };
  open: boolean;
  onClose: () => void;
}) {
  const toast = useToast();
  const { data: session } = useSessionQuery(undefined);
  const abilities = useShareAbilitiesQuery(undefined, { skip: !open });
  const mayShare = abilities.data?.abilities.canShareFiles === true;
  const colleagues = useColleaguesQuery(undefined, { skip: !open || !mayShare });
  const [share, { isLoading: sharing }] = useShareFileWithMutation();
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const selfUid = session?.user.uid ?? '';
  const others = useMemo(
    () => shareCandidates(colleagues.data?.items ?? [], selfUid, ''),
    [colleagues.data, selfUid],
  );
  const listed = useMemo(
    () => shareCandidates(colleagues.data?.items ?? [], selfUid, search),
    [colleagues.data, selfUid, search],
  );

  const close = () => {
    setSearch('');
    setSelected(new Set());
    onClose();
  };
  const toggle = (uid: string, on: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(uid);
      else next.delete(uid);
      return next;
    });
  };
  const submit = async () => {
    try {
      const answer = (await share({ fileId: file.id, userIds: [...selected] }).unwrap()) as {
        message?: string;
      };
      toast.success(answer.message ?? 'File sharing settings updated');
      close();
    } catch {
      // The spec's one text for any failure (drive.md §8), whatever the server said.
      toast.error(SHARE_FAILED);
    }
  };

  const body = () => {
    if (abilities.isLoading || abilities.isFetching)
      return <Alert type="info" showIcon title={CHECKING_PERMISSIONS} />;
    if (!mayShare) return <Alert type="warning" showIcon title={NO_SHARE_PERMISSION} />;
    if (colleagues.isLoading) return <Spin />;
    return (
      <Space orientation="vertical" size="small" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{file.name}</Typography.Text>
        <Input.Search
          allowClear
          placeholder="Search by name or email..."
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
          }}
        />
        <Space style={{ width: '100%', justifyContent: 'space-between' }}>
          <Typography.Text>{usersAvailable(listed.length)}</Typography.Text>
          <Space>
            <Button
              size="small"
              disabled={listed.length === 0}
              onClick={() => {
                setSelected((current) => new Set([...current, ...listed.map((colleague) => colleague.uid)]));
              }}
            >
              Select All
            </Button>
            <Button
              size="small"
              disabled={selected.size === 0}
              onClick={() => {
                setSelected(new Set());
              }}
            >
              Clear
            </Button>
          </Space>
        </Space>
        <div className="share-user-list" style={{ maxHeight: '20rem', overflowY: 'auto' }}>
          {listed.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyCandidatesText(others.length)} />
          ) : (
            <List
              size="small"
              dataSource={listed}
              renderItem={(colleague) => (
                <List.Item>
                  <Checkbox
                    checked={selected.has(colleague.uid)}
                    onChange={(event) => {
                      toggle(colleague.uid, event.target.checked);
                    }}
                  >
                    <Space orientation="vertical" size={0}>
                      <Typography.Text>{colleague.displayName}</Typography.Text>
                      <Typography.Text type="secondary">{colleague.email}</Typography.Text>
                    </Space>
                  </Checkbox>
                </List.Item>
              )}
            />
          )}
        </div>
      </Space>
    );
  };

  return (
    <Modal
      open={open}
      title="Share File"
      onCancel={close}
      destroyOnHidden
      footer={
        mayShare ? (
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Typography.Text>{usersSelected(selected.size)}</Typography.Text>
            <Space>
              <Button onClick={close}>Cancel</Button>
              <Button
                type="primary"
                disabled={selected.size === 0 || sharing}
                loading={sharing}
                onClick={() => void submit()}
              >
                {sharing ? 'Sharing...' : shareWithLabel(selected.size)}
              </Button>
            </Space>
          </Space>
        ) : (
          <Button onClick={close}>Cancel</Button>
        )
      }
    >
      {body()}
    </Modal>
  );
}
