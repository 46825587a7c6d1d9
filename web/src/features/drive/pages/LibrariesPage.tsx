import { PlusOutlined } from '@ant-design/icons';
import { Button, Select, Table, Tag } from 'antd';
import { useState } from 'react';
import { useDebouncedValue } from '../../../ui/useDebouncedValue';
import { ukDate } from '../../../ui/format';
import { useDrivesQuery, useLibrariesQuery } from '../api/driveApi';
import type { Library } from '../api/types';
import { useDrive } from '../context';
import { NewLibrary } from '../dialogs/NewLibrary';
import { EmptyState } from '../list/EmptyState';
import { DriveToolbar } from '../toolbar/DriveToolbar';

/**
 * /drive/libraries: the libraries of the drives the user owns or belongs to (never personal drives), a drive
 * selector (All Drives) and New Library.
 */
export function LibrariesPage() {
  const { abilities, session } = useDrive();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim().toLowerCase());
  const [driveId, setDriveId] = useState<string>('');
  const [creating, setCreating] = useState(false);
  const drives = useDrivesQuery(undefined);
  const libraries = useLibrariesQuery({ driveId: driveId || undefined });
  const uid = session.user.uid;
  const mine = (drives.data?.drives ?? []).filter(
    (drive) =>
      drive.type !== 'personal' &&
      (drive.ownerId === uid ||
        drive.members.some((member) => member.userId === uid) ||
        drive.type === 'module'),
  );
  const driveName = new Map(mine.map((drive) => [drive.id, drive.name]));
  const shown = (libraries.data?.libraries ?? []).filter(
    (library) =>
      library.visibleInDriveUI && driveName.has(library.driveId) && library.name.toLowerCase().includes(q),
  );
  return (
    <div data-testid="drive-page-libraries">
      <DriveToolbar
        placeholder="Search libraries..."
        search={search}
        onSearch={setSearch}
        actions={
          <>
            <Select
              aria-label="Drive"
              style={{ minWidth: 180 }}
              value={driveId}
              onChange={setDriveId}
              options={[
                { value: '', label: 'All Drives' },
                ...mine.map((drive) => ({ value: drive.id, label: drive.name })),
              ]}
            />
            {abilities.canCreateLibraries && (
              <Button
                icon={<PlusOutlined />}
                onClick={() => {
                  setCreating(true);
                }}
              >
                New Library
              </Button>
            )}
          </>
        }
      />
      {!libraries.isLoading && shown.length === 0 ? (
        <EmptyState kind="no-libraries" />
      ) : (
        <Table<Library>
          rowKey="id"
          loading={libraries.isLoading}
          dataSource={shown}
          pagination={false}
          columns={[
            { title: 'Name', dataIndex: 'name' },
            { title: 'Drive', key: 'drive', render: (_, library) => driveName.get(library.driveId) },
            { title: 'Description', dataIndex: 'description' },
            {
              title: 'Policies',
              key: 'policies',
              render: (_, library) => (
                <>
                  {library.policies.readOnly && <Tag>Read only</Tag>}
                  {library.policies.legalHold && <Tag color="red">Legal hold</Tag>}
                  {!library.policies.shareAllowed && <Tag>No sharing</Tag>}
                </>
              ),
            },
            { title: 'Created', key: 'createdAt', render: (_, library) => ukDate(library.createdAt) },
          ]}
        />
      )}
      {creating && (
        <NewLibrary
          drives={mine}
          driveId={driveId || undefined}
          onClose={() => {
            setCreating(false);
          }}
        />
      )}
    </div>
  );
}
