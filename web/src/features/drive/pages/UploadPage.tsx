import { Card } from 'antd';
import { DriveToolbar } from '../toolbar/DriveToolbar';
import { UploadForm } from '../upload/UploadForm';

/** /drive/upload: the standalone upload page (success goes to /drive/all). */
export function UploadPage() {
  return (
    <div data-testid="drive-page-upload">
      <DriveToolbar title="Upload Files" />
      <Card style={{ maxWidth: 720 }}>
        <UploadForm />
      </Card>
    </div>
  );
}
