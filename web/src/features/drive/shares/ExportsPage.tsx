import { LinkOutlined, PlusOutlined, ReloadOutlined, SettingOutlined, StopOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  Flex,
  Row,
  Segmented,
  Skeleton,
  Space,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useConfirm, useToast } from '../../../ui/feedback';
import { ukDate } from '../../../ui/format';
import { errorMessage, fieldErrorMessage } from '../../../ui/problem';
import {
  useRebuildShareMutation,
  useRevokeShareMutation,
  useShareAbilitiesQuery,
  useSharesQuery,
} from './api';
import { CreateShareDialog } from './CreateShareDialog';
import { ShareLinksDialog } from './ShareLinksDialog';
import { ShareSettingsDialog } from './ShareSettingsDialog';
import type { Share, ShareStatus } from './types';

type Filter = 'all' | ShareStatus;

export const NO_SHARES = 'No shares to display.';
export const REBUILD_FAILED = 'Failed to rebuild';
export const REVOKE_FAILED = 'Failed to revoke share';

/**
 * /drive/exports (drive.md §2): the tenant's shares as cards in a 1/2/3-column grid, filtered All Shares / Active /
 * Expired with their counts; Create Share; per share its links, settings, Rebuild and Revoke (a revoked share is
 * expired for good: its card says why, and only its links stay).
 */
export function ExportsPage() {
  const toast = useToast();
  const confirm = useConfirm();
  const [filter, setFilter] = useState<Filter>('all');
  const [dialog, setDialog] = useState<
    { kind: 'create' } | { kind: 'links'; share: Share } | { kind: 'settings'; share: Share } | null
  >(null);
  const abilities = useShareAbilitiesQuery(undefined);
  const { data, error, isLoading, refetch } = useSharesQuery(filter === 'all' ? {} : { status: filter });
  const [rebuild] = useRebuildShareMutation();
  const [revoke] = useRevokeShareMutation();
  const counts = data?.counts ?? { all: 0, active: 0, expired: 0 };

  const rebuildShare = async (share: Share) => {
    const go = await confirm({
      title: 'Rebuild Share',
      message: `Remove the files of "${share.name}" that no longer exist?`,
      confirmText: 'Rebuild',
    });
    if (!go) return;
    try {
      const answer = await rebuild(share.id).unwrap();
      toast.success(`Removed ${String(answer.removed)} missing file(s).`);
    } catch {
      // The spec's one text for a failed rebuild (drive.md §8).
      toast.error(REBUILD_FAILED);
    }
  };

  const revokeShare = async (share: Share) => {
    const go = await confirm({
      title: 'Revoke Share',
      message: `Revoke "${share.name}"? Its link stops working for good.`,
      confirmText: 'Revoke',
      style: 'danger',
    });
    if (!go) return;
    try {
      await revoke(share.id).unwrap();
      toast.success('Share revoked');
    } catch (failure) {
      toast.error(fieldErrorMessage(failure, REVOKE_FAILED));
    }
  };

  return (
    <div>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Segmented<Filter>
          value={filter}
          onChange={setFilter}
          options={[
            { label: `All Shares (${String(counts.all)})`, value: 'all' },
            { label: `Active (${String(counts.active)})`, value: 'active' },
            { label: `Expired (${String(counts.expired)})`, value: 'expired' },
          ]}
        />
        {abilities.data?.abilities.canCreateShares && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => {
              setDialog({ kind: 'create' });
            }}
          >
            Create Share
          </Button>
        )}
      </Space>
      {isLoading && <Skeleton active />}
      {error && (
        <Alert
          type="error"
          showIcon
          title={errorMessage(error, 'Failed to load shares')}
          action={<Button onClick={() => void refetch()}>Retry</Button>}
        />
      )}
      {data && data.items.length === 0 && <Empty description={NO_SHARES} />}
      {data && data.items.length > 0 && (
        <Row gutter={[16, 16]} className="share-cards">
          {data.items.map((share) => (
            <Col key={share.id} xs={24} md={12} lg={8}>
              <Card
                className="share-card"
                title={share.name}
                extra={<Tag color={share.status === 'active' ? 'green' : 'default'}>{share.status}</Tag>}
              >
                <Space orientation="vertical" size={2}>
                  <Typography.Text>
                    Visibility: <Tag>{share.visibility}</Tag>
                  </Typography.Text>
                  <Typography.Text>{`${String(share.fileCount)} file(s)`}</Typography.Text>
                  {share.policy.expiresAt && (
                    <Typography.Text type="secondary">
                      Expires {ukDate(share.policy.expiresAt)}
                    </Typography.Text>
                  )}
                  {share.revokedAt && (
                    <Typography.Text type="danger">
                      {`Revoked ${ukDate(share.revokedAt)}: ${share.revokeReason ?? ''}`}
                    </Typography.Text>
                  )}
                  {share.passcode.required && (
                    <Typography.Text type="secondary">
                      {share.passcode.locked ? 'Passcode locked' : 'Passcode required'}
                    </Typography.Text>
                  )}
                </Space>
                {/* The actions wrap onto a second line in a narrow card (a card's own action bar would not). */}
                <Flex wrap gap={4} className="share-card-actions" style={{ marginTop: 12 }}>
                  <Button
                    size="small"
                    icon={<LinkOutlined />}
                    onClick={() => {
                      setDialog({ kind: 'links', share });
                    }}
                  >
                    Links
                  </Button>
                  {!share.revokedAt && (
                    <>
                      <Button
                        size="small"
                        icon={<SettingOutlined />}
                        onClick={() => {
                          setDialog({ kind: 'settings', share });
                        }}
                      >
                        Settings
                      </Button>
                      <Button size="small" icon={<ReloadOutlined />} onClick={() => void rebuildShare(share)}>
                        Rebuild
                      </Button>
                      <Button
                        size="small"
                        danger
                        icon={<StopOutlined />}
                        onClick={() => void revokeShare(share)}
                      >
                        Revoke
                      </Button>
                    </>
                  )}
                </Flex>
              </Card>
            </Col>
          ))}
        </Row>
      )}
      {dialog?.kind === 'create' && (
        <CreateShareDialog
          onClose={() => {
            setDialog(null);
          }}
          onCreated={(share) => {
            setDialog({ kind: 'links', share });
          }}
        />
      )}
      {dialog?.kind === 'links' && (
        <ShareLinksDialog
          share={dialog.share}
          onClose={() => {
            setDialog(null);
          }}
        />
      )}
      {dialog?.kind === 'settings' && (
        <ShareSettingsDialog
          share={dialog.share}
          onClose={() => {
            setDialog(null);
          }}
        />
      )}
    </div>
  );
}
