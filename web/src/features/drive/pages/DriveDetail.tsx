import { PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { Alert, Breadcrumb, Button, Skeleton } from 'antd';
import { canManageDrive } from '@workspace/drive/domain';
import { useState } from 'react';
import { Link, useParams, useSearchParams, useNavigate } from 'react-router';
import { useDrivesQuery, useFoldersQuery } from '../api/driveApi';
import { useDrive } from '../context';
import { EditDriveSettings } from '../dialogs/EditDriveSettings';
import { EditFolder } from '../dialogs/EditFolder';
import { FileBrowser } from '../list/FileBrowser';
import { FolderCards } from './FolderCards';
import { folderChain } from './folderPath';
import { RepairReferencesButton } from './repairReferences';

/** /drive/{driveId} (?folder=): the drive's folders and files; New Folder, Upload, Repair references, the breadcrumb,
 * its settings. */
export function DriveDetail() {
  const { abilities, session } = useDrive();
  const { driveId = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const folderId = params.get('folder') ?? undefined;
  const drives = useDrivesQuery(undefined);
  const folders = useFoldersQuery({ driveId });
  const [dialog, setDialog] = useState<'folder' | 'settings' | null>(null);
  const drive = drives.data?.drives.find((item) => item.id === driveId);
  if (drives.isLoading) return <Skeleton active />;
  if (!drive) return <Alert type="warning" showIcon title="Drive not found" />;
  const all = folders.data?.items ?? [];
  const current = all.find((folder) => folder.id === folderId);
  const chain = folderChain(all, current);
  const level = all.filter((folder) => folder.parentId === (current?.id ?? null));
  const manages = canManageDrive(
    { userId: session.user.uid, scopes: new Set(session.scopes) },
    { type: drive.type, ownerId: drive.ownerId, visibility: 'members', members: drive.members },
  );

  const breadcrumb = (
    <Breadcrumb
      data-testid="drive-breadcrumb"
      style={{ marginTop: 8 }}
      items={[
        { title: <Link to={`/drive/${drive.id}`}>{drive.name}</Link> },
        ...chain.map((folder) => ({
          title: <Link to={`/drive/${drive.id}?folder=${folder.id}`}>{folder.name}</Link>,
        })),
      ]}
    />
  );

  return (
    <>
      <FileBrowser
        key={`${driveId}:${folderId ?? ''}`}
        page="drive"
        view="all"
        driveId={driveId}
        folderId={folderId}
        placeholder="Search drive..."
        empty="no-files"
        breadcrumb={breadcrumb}
        actions={
          <>
            {(abilities.canCreateFolders || abilities.canManageAll) && (
              <Button
                icon={<PlusOutlined />}
                onClick={() => {
                  setDialog('folder');
                }}
              >
                New Folder
              </Button>
            )}
            {abilities.canRepairReferences && <RepairReferencesButton driveId={driveId} />}
            {manages && (
              <Button
                icon={<SettingOutlined />}
                aria-label="Drive settings"
                onClick={() => {
                  setDialog('settings');
                }}
              />
            )}
          </>
        }
      >
        {level.length > 0 && (
          <FolderCards
            folders={level}
            onOpen={(folder) => void navigate(`/drive/${drive.id}?folder=${folder.id}`)}
          />
        )}
      </FileBrowser>
      {dialog === 'folder' && (
        <EditFolder
          driveId={driveId}
          parentId={current?.id ?? null}
          onClose={() => {
            setDialog(null);
          }}
        />
      )}
      {dialog === 'settings' && (
        <EditDriveSettings
          drive={drive}
          onClose={() => {
            setDialog(null);
          }}
        />
      )}
    </>
  );
}
