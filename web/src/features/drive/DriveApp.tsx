import {
  ClockCircleOutlined,
  CloudUploadOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DeleteOutlined,
  FileOutlined,
  FolderOutlined,
  StarOutlined,
  TeamOutlined,
  BookOutlined,
  ExportOutlined,
  EditOutlined,
} from '@ant-design/icons';
import { Alert, Drawer, Grid, Layout, Menu, Skeleton } from 'antd';
import { useMemo, useState } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import type { Session } from '../../app/api';
import { errorMessage, errorStatus } from '../../ui/problem';
import { useDriveAbilitiesQuery } from './api/driveApi';
import type { DriveFile } from './api/types';
import { DriveContext, type DriveContextValue } from './context';
import { AccessDenied } from './list/EmptyState';
import { DriveDetail } from './pages/DriveDetail';
import { DrivesPage } from './pages/DrivesPage';
import { AllFilesPage, RecentPage, StarredPage, TrashPage } from './pages/FilesPage';
import { FoldersPage } from './pages/FoldersPage';
import { LibrariesPage } from './pages/LibrariesPage';
import { Overview } from './pages/Overview';
import { SharedPage } from './pages/SharedPage';
import { UploadPage } from './pages/UploadPage';
import { PreviewModal } from './preview/PreviewModal';
import { ExportsPage } from './shares/ExportsPage';
import { ShareFileDialog } from './shares/ShareFileDialog';
import { RequestSignatureDialog } from './signatures/RequestSignatureDialog';
import { SignaturesPage } from './signatures/SignaturesPage';
import { UploadDialog } from './upload/UploadDialog';

const NAV = [
  { key: 'overview', label: 'Overview', icon: <DashboardOutlined /> },
  { key: 'all', label: 'All Files', icon: <FileOutlined /> },
  { key: 'recent', label: 'Recent', icon: <ClockCircleOutlined /> },
  { key: 'starred', label: 'Starred', icon: <StarOutlined /> },
  { key: 'shared', label: 'Shared', icon: <TeamOutlined /> },
  { key: 'drives', label: 'Drives', icon: <DatabaseOutlined /> },
  { key: 'libraries', label: 'Libraries', icon: <BookOutlined /> },
  { key: 'folders', label: 'Folders', icon: <FolderOutlined /> },
  { key: 'upload', label: 'Upload', icon: <CloudUploadOutlined /> },
  { key: 'exports', label: 'Exports', icon: <ExportOutlined /> },
  { key: 'signatures', label: 'Signatures', icon: <EditOutlined /> },
  { key: 'trash', label: 'Trash', icon: <DeleteOutlined /> },
];

/**
 * The drive module: the caller's abilities (GET /api/drive/me/abilities) drive every control; a user who may not
 * view the drive meets Access Denied. The sidebar is a drawer under 768 px, opened from the toolbar.
 */
export function DriveApp({ session }: { session: Session }) {
  const { data, error, isLoading } = useDriveAbilitiesQuery(undefined);
  const location = useLocation();
  const navigate = useNavigate();
  const screens = Grid.useBreakpoint();
  const mobile = screens.md === false;
  const [drawer, setDrawer] = useState(false);
  const [upload, setUpload] = useState<{ fixed?: { driveId: string; folderId?: string | null } } | null>(
    null,
  );
  const [preview, setPreview] = useState<DriveFile | null>(null);
  const [sharing, setSharing] = useState<DriveFile | null>(null);
  const [signing, setSigning] = useState<DriveFile | null>(null);
  const context = useMemo<DriveContextValue | null>(
    () =>
      data
        ? {
            abilities: data.abilities,
            session,
            openUpload: (fixed) => {
              setUpload({ fixed });
            },
            openPreview: setPreview,
            openShare: setSharing,
            requestSignature: setSigning,
            toggleSidebar: () => {
              setDrawer((open) => !open);
            },
          }
        : null,
    [data, session],
  );

  if (isLoading) return <Skeleton active paragraph={{ rows: 6 }} />;
  if ((error && errorStatus(error) === 403) || (context && !context.abilities.canView))
    return <AccessDenied detail="You don't have permission to view the drive." />;
  if (error || !context)
    return <Alert type="error" showIcon title={`The drive could not be loaded: ${errorMessage(error)}`} />;

  const section = location.pathname.split('/')[2] ?? 'overview';
  const menu = (
    <Menu
      mode="inline"
      selectedKeys={[section]}
      items={context.abilities.canUpload ? NAV : NAV.filter((item) => item.key !== 'upload')}
      onClick={({ key }) => {
        setDrawer(false);
        void navigate(`/drive/${key}`);
      }}
      style={{ borderInlineEnd: 0 }}
    />
  );

  return (
    <DriveContext.Provider value={context}>
      <Layout data-testid="drive-module" style={{ background: 'transparent' }}>
        {!mobile && (
          <Layout.Sider
            width={200}
            theme="light"
            data-testid="drive-sidebar"
            style={{ background: 'transparent' }}
          >
            {menu}
          </Layout.Sider>
        )}
        {mobile && (
          <Drawer
            placement="left"
            open={drawer}
            onClose={() => {
              setDrawer(false);
            }}
            size={240}
            title="Drive"
          >
            {menu}
          </Drawer>
        )}
        <Layout.Content style={{ paddingInline: mobile ? 0 : 16, minWidth: 0 }}>
          <Routes>
            <Route index element={<Navigate to="/drive/overview" replace />} />
            <Route path="overview" element={<Overview />} />
            <Route path="all" element={<AllFilesPage />} />
            <Route path="recent" element={<RecentPage />} />
            <Route path="starred" element={<StarredPage />} />
            <Route path="trash" element={<TrashPage />} />
            <Route path="shared" element={<SharedPage />} />
            <Route path="drives" element={<DrivesPage />} />
            <Route path="libraries" element={<LibrariesPage />} />
            <Route path="folders/*" element={<FoldersPage />} />
            <Route path="upload" element={<UploadPage />} />
            <Route path="exports" element={<ExportsPage />} />
            <Route path="signatures" element={<SignaturesPage />} />
            <Route path=":driveId" element={<DriveDetail />} />
            <Route path="*" element={<Navigate to="/drive/overview" replace />} />
          </Routes>
        </Layout.Content>
      </Layout>
      {upload && (
        <UploadDialog
          fixed={upload.fixed}
          onClose={() => {
            setUpload(null);
          }}
        />
      )}
      {preview && (
        <PreviewModal
          file={preview}
          onClose={() => {
            setPreview(null);
          }}
        />
      )}
      {sharing && (
        <ShareFileDialog
          file={sharing}
          open
          onClose={() => {
            setSharing(null);
          }}
        />
      )}
      {signing && (
        <RequestSignatureDialog
          file={signing}
          open
          onClose={() => {
            setSigning(null);
          }}
        />
      )}
    </DriveContext.Provider>
  );
}
