import { PlusOutlined } from '@ant-design/icons';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { useDebouncedValue } from '../../../ui/useDebouncedValue';
import { useDrivesQuery } from '../api/driveApi';
import { CreateSharedDrive } from '../dialogs/CreateSharedDrive';
import { FileBrowser } from '../list/FileBrowser';
import { DriveToolbar } from '../toolbar/DriveToolbar';
import { DriveCards } from './DriveCards';

/** /drive/shared: the shared drives (New Shared Drive) and the files shared with the user. */
export function SharedPage() {
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim().toLowerCase());
  const [creating, setCreating] = useState(false);
  const drives = useDrivesQuery(undefined);
  const shared = (drives.data?.drives ?? []).filter(
    (drive) => drive.type === 'shared' && drive.name.toLowerCase().includes(q),
  );
  return (
    <div data-testid="drive-page-shared">
      <DriveToolbar
        placeholder="Search shared drives..."
        search={search}
        onSearch={setSearch}
        tab="shared"
        actions={
          <Button
            icon={<PlusOutlined />}
            onClick={() => {
              setCreating(true);
            }}
          >
            New Shared Drive
          </Button>
        }
      />
      <Typography.Title level={5}>Shared drives</Typography.Title>
      {shared.length > 0 ? (
        <DriveCards drives={shared} />
      ) : (
        <Typography.Paragraph type="secondary">No drives available</Typography.Paragraph>
      )}
      <Typography.Title level={5}>Shared files</Typography.Title>
      <FileBrowser page="shared" view="shared" placeholder="Search files..." empty="no-shared" embedded />
      {creating && (
        <CreateSharedDrive
          onClose={() => {
            setCreating(false);
          }}
        />
      )}
    </div>
  );
}
