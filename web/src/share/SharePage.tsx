import { DownloadOutlined, EyeOutlined, FileOutlined, LockOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Layout, List, Result, Space, Spin, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { formatBytes } from '../features/drive/list/format';
import { ukDate } from '../ui/format';
import { SharePreview } from './SharePreview';
import {
  fileUrl,
  forgetViewerToken,
  loadShare,
  refusalOf,
  savedViewerToken,
  saveViewerToken,
  shareAddress,
  unlockShare,
  type PublicShareView,
  type Refusal,
} from './shareLink';

type Loaded =
  | { state: 'loading' }
  | { state: 'refused'; refusal: Refusal; detail: string }
  | { state: 'ready'; view: PublicShareView };

const NOT_FOUND = 'This share link does not exist or is not available to you.';

/**
 * A public share link (/share/{shareId}?tenantId=…): the share's files for whoever holds the link, as its policy
 * allows (preview, download when allowed, a watermark naming the viewer when set). Signed out it works for public
 * shares; tenant and restricted shares ask the visitor to sign in (the bff sends a colleague's session along); a
 * passcode opens the share for this tab.
 */
export function SharePage({ path, search }: { path: string; search: string }) {
  const address = shareAddress(path, search);
  const [loaded, setLoaded] = useState<Loaded>(
    address ? { state: 'loading' } : { state: 'refused', refusal: { kind: 'missing' }, detail: NOT_FOUND },
  );
  const [token, setToken] = useState<string | undefined>(() =>
    address ? savedViewerToken(address.shareId) : undefined,
  );

  const load = useCallback(
    async (viewerToken: string | undefined) => {
      if (!address) return;
      const answer = await loadShare(address.shareId, address.tenantId, viewerToken).catch(() => undefined);
      if (!answer) {
        setLoaded({
          state: 'refused',
          refusal: { kind: 'missing' },
          detail: 'The share could not be loaded. Please try again.',
        });
        return;
      }
      if (answer.ok) {
        setLoaded({ state: 'ready', view: answer.view });
        return;
      }
      // A viewer token that expired: ask for the passcode again.
      if (viewerToken && answer.failure.code === 'passcode_required') forgetViewerToken(address.shareId);
      setLoaded({
        state: 'refused',
        refusal: refusalOf(answer.failure.status, answer.failure.code),
        detail: answer.failure.detail || NOT_FOUND,
      });
    },
    // The address is read from the page's URL, which does not change while the page lives.
    [address?.shareId, address?.tenantId],
  );

  useEffect(() => {
    void load(token);
  }, [load, token]);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header style={{ display: 'flex', alignItems: 'center' }}>
        <Typography.Text strong style={{ color: '#fff', fontSize: 18 }}>
          Workspace
        </Typography.Text>
      </Layout.Header>
      <Layout.Content style={{ padding: '32px 16px' }}>
        <div style={{ maxWidth: 880, margin: '0 auto' }}>
          {loaded.state === 'loading' && <Spin style={{ display: 'block', margin: '15vh auto' }} />}
          {loaded.state === 'refused' && address && loaded.refusal.kind === 'passcode' && (
            <PasscodeForm
              detail={loaded.detail}
              unlock={async (passcode) => {
                const answer = await unlockShare(address.shareId, address.tenantId, passcode);
                if (answer.ok) {
                  saveViewerToken(address.shareId, answer.token);
                  setToken(answer.token.viewerToken);
                  return undefined;
                }
                if (answer.failure.code === 'passcode_locked' || answer.failure.status === 423) {
                  setLoaded({ state: 'refused', refusal: { kind: 'locked' }, detail: answer.failure.detail });
                  return undefined;
                }
                return answer.failure.detail || 'The passcode could not be checked. Please try again.';
              }}
            />
          )}
          {loaded.state === 'refused' && loaded.refusal.kind !== 'passcode' && (
            <Refused refusal={loaded.refusal} detail={loaded.detail} returnTo={`${path}${search}`} />
          )}
          {loaded.state === 'ready' && address && (
            <ShareFiles
              view={loaded.view}
              shareId={address.shareId}
              tenantId={address.tenantId}
              token={token}
            />
          )}
        </div>
      </Layout.Content>
    </Layout>
  );
}

function Refused({ refusal, detail, returnTo }: { refusal: Refusal; detail: string; returnTo: string }) {
  if (refusal.kind === 'sign-in')
    return (
      <Result
        status="403"
        title="Sign in to open this share"
        subTitle={detail}
        extra={
          <Button type="primary" href={`/login?returnTo=${encodeURIComponent(returnTo)}`}>
            Sign in
          </Button>
        }
      />
    );
  if (refusal.kind === 'locked')
    return <Result status="error" icon={<LockOutlined />} title="Share locked" subTitle={detail} />;
  if (refusal.kind === 'expired') return <Result status="warning" title="Share expired" subTitle={detail} />;
  if (refusal.kind === 'gone') return <Result status="403" title="Share not available" subTitle={detail} />;
  return <Result status="404" title="Share not found" subTitle={detail} />;
}

function PasscodeForm({
  detail,
  unlock,
}: {
  detail: string;
  unlock: (passcode: string) => Promise<string | undefined>;
}) {
  const [form] = Form.useForm<{ passcode: string }>();
  const [busy, setBusy] = useState(false);
  return (
    <Card style={{ maxWidth: 420, margin: '10vh auto' }}>
      <Space orientation="vertical" size="small" style={{ width: '100%' }}>
        <Typography.Title level={4}>
          <LockOutlined /> Passcode required
        </Typography.Title>
        <Typography.Paragraph type="secondary">{detail}</Typography.Paragraph>
        <Form
          form={form}
          layout="vertical"
          onFinish={({ passcode }) => {
            setBusy(true);
            void unlock(passcode)
              .then((refused) => {
                if (refused) form.setFields([{ name: 'passcode', errors: [refused] }]);
              })
              .finally(() => {
                setBusy(false);
              });
          }}
        >
          <Form.Item
            label="Passcode"
            name="passcode"
            rules={[{ required: true, message: 'Enter the passcode you were given' }]}
          >
            <Input.Password autoFocus autoComplete="off" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={busy} block>
            Open share
          </Button>
        </Form>
      </Space>
    </Card>
  );
}

function ShareFiles({
  view,
  shareId,
  tenantId,
  token,
}: {
  view: PublicShareView;
  shareId: string;
  tenantId: string;
  token: string | undefined;
}) {
  const [previewing, setPreviewing] = useState<PublicShareView['files'][number] | null>(null);
  const url = (fileId: string, as: 'preview' | 'download') => fileUrl(shareId, tenantId, fileId, as, token);
  return (
    <Card>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {view.name}
      </Typography.Title>
      <Space wrap style={{ marginBottom: 16 }}>
        <Tag color={view.policy.allowDownload ? 'green' : 'default'}>
          {view.policy.allowDownload ? 'Downloads allowed' : 'View only'}
        </Tag>
        {view.policy.watermark && <Tag color="gold">Watermarked</Tag>}
        {view.policy.expiresAt && <Tag>Expires {ukDate(view.policy.expiresAt)}</Tag>}
      </Space>
      {view.policy.watermark && (
        <Typography.Paragraph type="secondary">
          Previews and downloads carry a watermark with your name ({view.viewer.name}) and the time.
        </Typography.Paragraph>
      )}
      <List
        dataSource={view.files}
        locale={{ emptyText: 'No files found' }}
        renderItem={(file) => (
          <List.Item
            actions={[
              <Button
                key="preview"
                icon={<EyeOutlined />}
                aria-label={`Preview ${file.name}`}
                onClick={() => {
                  setPreviewing(file);
                }}
              >
                Preview
              </Button>,
              ...(view.policy.allowDownload
                ? [
                    <Button
                      key="download"
                      icon={<DownloadOutlined />}
                      aria-label={`Download ${file.name}`}
                      href={url(file.id, 'download')}
                    >
                      Download
                    </Button>,
                  ]
                : []),
            ]}
          >
            <List.Item.Meta
              avatar={<FileOutlined />}
              title={file.name}
              description={formatBytes(file.size)}
            />
          </List.Item>
        )}
      />
      {previewing && (
        <SharePreview
          file={previewing}
          previewUrl={url(previewing.id, 'preview')}
          downloadUrl={view.policy.allowDownload ? url(previewing.id, 'download') : undefined}
          onClose={() => {
            setPreviewing(null);
          }}
        />
      )}
    </Card>
  );
}
