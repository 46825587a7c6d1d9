import { PlusOutlined } from '@ant-design/icons';
import { Button, Skeleton } from 'antd';
import { useState } from 'react';
import { useDebouncedValue } from '../../../ui/useDebouncedValue';
import { useDrivesQuery } from '../api/driveApi';
import { CreateSharedDrive } from '../dialogs/CreateSharedDrive';
import { EmptyState } from '../list/EmptyState';
import { DriveToolbar } from '../toolbar/DriveToolbar';
import { DriveCards } from './DriveCards';

/** /drive/drives: the drives the user sees. */
export function DrivesPage() {
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim().toLowerCase());
  const [creating, setCreating] = useState(false);
  const drives = useDrivesQuery(undefined);
  const shown = (drives.data?.drives ?? []).filter((drive) => drive.name.toLowerCase().includes(q));
  return (
    <div data-testid="drive-page-drives">
      <DriveToolbar
        placeholder="Search drive..."
        search={search}
        onSearch={setSearch}
        actions={
          // Offered to everyone: without the create-drives capability the dialog is the Access Restricted panel.
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
      {drives.isLoading ? (
        <Skeleton active />
      ) : shown.length === 0 ? (
        <EmptyState kind="no-drives" />
      ) : (
        <DriveCards drives={shown} />
      )}
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
