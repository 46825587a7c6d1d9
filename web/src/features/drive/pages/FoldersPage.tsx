import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Breadcrumb, Button, Select, Skeleton } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useDebouncedValue } from '../../../ui/useDebouncedValue';
import { useDrivesQuery, useFoldersQuery } from '../api/driveApi';
import { useDrive } from '../context';
import { EditFolder } from '../dialogs/EditFolder';
import { EmptyState } from '../list/EmptyState';
import { FileBrowser } from '../list/FileBrowser';
import { DriveToolbar } from '../toolbar/DriveToolbar';
import type { Folder } from '../api/types';
import { FolderCards } from './FolderCards';
import { folderPath, resolveSlugChain } from './folderPath';

/**
 * /drive/folders and /drive/folders/{slug chain}: the folder browser of a drive (?drive=, else the first drive),
 * the breadcrumb built from the chain's slugs, New Folder and Edit Folder, and the folder's files.
 */
export function FoldersPage() {
  const { abilities } = useDrive();
  const params = useParams();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const slugs = (params['*'] ?? '').split('/').filter(Boolean).map(decodeURIComponent);
  const drives = useDrivesQuery(undefined);
  const visible = drives.data?.drives ?? [];
  const driveId = searchParams.get('drive') ?? visible[0]?.id;
  const folders = useFoldersQuery({ driveId: driveId ?? '' }, { skip: !driveId });
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim().toLowerCase());
  // The dialog open: a new folder, or the folder edited as it was when the dialog opened (kept if it goes meanwhile).
  const [editing, setEditing] = useState<{ folder?: Folder; chain?: Folder[] } | null>(null);
  const all = folders.data?.items ?? [];
  const chain = resolveSlugChain(all, slugs);
  const current = chain?.at(-1);
  const level = all.filter(
    (folder) => folder.parentId === (current?.id ?? null) && folder.name.toLowerCase().includes(q),
  );
  const suffix = driveId && searchParams.get('drive') ? `?drive=${driveId}` : '';
  const canCreate = abilities.canCreateFolders || abilities.canManageAll;

  const breadcrumb = (
    <Breadcrumb
      data-testid="folder-breadcrumb"
      style={{ marginTop: 8 }}
      items={[
        { title: <Link to={`/drive/folders${suffix}`}>Folders</Link> },
        ...(chain ?? []).map((folder, index) => ({
          title: <Link to={`${folderPath((chain ?? []).slice(0, index + 1))}${suffix}`}>{folder.slug}</Link>,
        })),
      ]}
    />
  );

  return (
    <div data-testid="drive-page-folders">
      <DriveToolbar
        placeholder="Search folders..."
        search={search}
        onSearch={setSearch}
        breadcrumb={breadcrumb}
        actions={
          <>
            <Select
              aria-label="Drive"
              style={{ minWidth: 160 }}
              value={driveId}
              onChange={(id: string) => void navigate(`/drive/folders?drive=${id}`)}
              options={visible.map((drive) => ({ value: drive.id, label: drive.name }))}
            />
            {canCreate && driveId && (
              <Button
                icon={<PlusOutlined />}
                onClick={() => {
                  setEditing({});
                }}
              >
                New Folder
              </Button>
            )}
            <Button
              icon={<EditOutlined />}
              disabled={!current}
              onClick={() => {
                if (current && chain) setEditing({ folder: current, chain });
              }}
            >
              Edit Folder
            </Button>
          </>
        }
      />
      {drives.isLoading || folders.isLoading ? (
        <Skeleton active />
      ) : !driveId ? (
        <EmptyState kind="no-drives" />
      ) : slugs.length > 0 && !chain ? (
        <Alert type="warning" showIcon title="Folder not found" />
      ) : (
        <>
          {level.length === 0 ? (
            !current && <EmptyState kind="no-folders" />
          ) : (
            <FolderCards
              folders={level}
              onOpen={(folder) => void navigate(`${folderPath([...(chain ?? []), folder])}${suffix}`)}
            />
          )}
          {current && (
            <FileBrowser
              key={current.id}
              page="folder"
              view="all"
              driveId={driveId}
              folderId={current.id}
              placeholder="Search files..."
              empty="no-files"
              embedded
            />
          )}
        </>
      )}
      {editing && driveId && (
        <EditFolder
          driveId={driveId}
          folder={editing.folder}
          parentId={current?.id ?? null}
          onClose={() => {
            setEditing(null);
          }}
          onSaved={(slug) => {
            // A renamed folder has a new slug: its address follows it.
            const edited = editing.chain;
            if (edited && slug !== editing.folder?.slug)
              void navigate(`${folderPath([...edited.slice(0, -1), { slug }])}${suffix}`, { replace: true });
          }}
        />
      )}
    </div>
  );
}
