import { App, Button, Checkbox, Empty, Input, List, Modal, Space, Spin, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSessionQuery } from '../../../app/api';
import { useToast } from '../../../ui/feedback';
import { errorStatus } from '../../../ui/problem';
import {
  useColleaguesQuery,
  useLazyShareAbilitiesQuery,
  useLazyShareLibrariesQuery,
  useShareFileWithMutation,
} from './api';
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
const CHECKING_KEY = 'share-file-checking-permissions';

/**
 * Share File (drive.md §2): pick colleagues (never yourself) and share the file with them. The dialog appears only
 * when the user may share this file: the permissions are checked afresh each time it is asked for ('Checking
 * permissions, please wait...' meanwhile); without canShareFiles, or in a library that does not allow sharing, it
 * does not open and says 'You don't have permission to share files'. The drive decides again when it is sent.
 */
export function ShareFileDialog({
  file,
  open,
  onClose,
}: {
  file: { id: string; name: string; libraryId: string };
  open: boolean;
  onClose: () => void;
}) {
  const toast = useToast();
  const { message } = App.useApp();
  const { data: session } = useSessionQuery(undefined);
  const [checkAbilities] = useLazyShareAbilitiesQuery();
  const [checkLibraries] = useLazyShareLibrariesQuery();
  const [mayShare, setMayShare] = useState(false);
  const refused = useRef(onClose);
  useEffect(() => {
    refused.current = onClose;
  }, [onClose]);
  useEffect(() => {
    if (!open) return;
    let current = true;
    // Fresh answers, not the cache: a permission taken away since the page loaded counts.
    void message.open({ key: CHECKING_KEY, type: 'info', content: CHECKING_PERMISSIONS, duration: 0 });
    void Promise.all([checkAbilities(undefined).unwrap(), checkLibraries(undefined).unwrap()]).then(
      ([{ abilities }, { libraries }]) => {
        if (!current) return;
        message.destroy(CHECKING_KEY);
        const library = libraries.find((candidate) => candidate.id === file.libraryId);
        if (abilities.canShareFiles && library?.policies.shareAllowed !== false) {
          setMayShare(true);
          return;
        }
        toast.error(NO_SHARE_PERMISSION);
        refused.current();
      },
      () => {
        if (!current) return;
        message.destroy(CHECKING_KEY);
        toast.error(SHARE_FAILED);
        refused.current();
      },
    );
    return () => {
      current = false;
      message.destroy(CHECKING_KEY);
    };
  }, [open, file.libraryId, checkAbilities, checkLibraries, message, toast]);
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
    } catch (error) {
      // The spec's texts (drive.md §8): the drive refusing the share (no share scope for this file's library, or a
      // library that forbids sharing) is the permission message; any other failure the one retry text.
      toast.error(errorStatus(error) === 403 ? NO_SHARE_PERMISSION : SHARE_FAILED);
    }
  };

  const body = () => {
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
      open={open && mayShare}
      title="Share File"
      onCancel={close}
      destroyOnHidden
      footer={
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
      }
    >
      {body()}
    </Modal>
  );
}
