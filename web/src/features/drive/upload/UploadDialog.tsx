import { Modal } from 'antd';
import { UploadForm } from './UploadForm';

/** The Upload dialog (from the toolbar): inside a drive it stays on the page after success, else it goes to /drive/all. */
export function UploadDialog({
  fixed,
  onClose,
}: {
  fixed?: { driveId: string; folderId?: string | null };
  onClose: () => void;
}) {
  return (
    <Modal open title="Upload Files" footer={null} onCancel={onClose} width={640} mask={{ closable: false }}>
      <UploadForm fixed={fixed} noRedirect={!!fixed} onDone={onClose} />
    </Modal>
  );
}
