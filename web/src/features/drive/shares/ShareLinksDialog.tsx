import { CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Modal, Space } from 'antd';
import { useToast } from '../../../ui/feedback';
import { useShareLinkCopiedMutation } from './api';
import { publicShareUrl } from './format';
import type { Share } from './types';

export const NOT_PUBLIC_WARNING = 'This share is not public. Change visibility to Public in Settings.';

/** Share Links (drive.md §2): the public URL read-only, Copy and Close; a warning when the share is not public. */
export function ShareLinksDialog({ share, onClose }: { share: Share; onClose: () => void }) {
  const toast = useToast();
  const [copied] = useShareLinkCopiedMutation();
  const url = publicShareUrl(window.location.origin, share.url);
  return (
    <Modal open title="Share Links" onCancel={onClose} footer={<Button onClick={onClose}>Close</Button>}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        {share.visibility !== 'public' && <Alert type="warning" showIcon title={NOT_PUBLIC_WARNING} />}
        <Space.Compact style={{ width: '100%' }}>
          <Input readOnly value={url} aria-label="Public URL" />
          <Button
            icon={<CopyOutlined />}
            onClick={() => {
              void navigator.clipboard.writeText(url).then(() => {
                toast.success('Link copied');
                // SHARE_LINK_COPIED: a failure to record it does not matter to the user.
                void copied(share.id);
              });
            }}
          >
            Copy
          </Button>
        </Space.Compact>
      </Space>
    </Modal>
  );
}
