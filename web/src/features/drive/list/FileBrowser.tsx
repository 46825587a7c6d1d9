import { DeleteOutlined, FolderOpenOutlined, UndoOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Select, Skeleton, Space, Typography } from 'antd';
import { useEffect, useMemo, useReducer, useState, type ReactNode } from 'react';
import { restoreText, TRASH_TEXTS } from '@workspace/drive/domain';
import { useDebouncedValue } from '../../../ui/useDebouncedValue';
import { errorMessage } from '../../../ui/problem';
import { useToast } from '../../../ui/feedback';
import { useFilesQuery, useFoldersQuery, useLibrariesQuery, useRestoreFilesMutation } from '../api/driveApi';
import type { DriveFile, FileView } from '../api/types';
import { useDrive } from '../context';
import { DeleteDialog } from '../dialogs/DeleteDialog';
import { MoveToFolder } from '../dialogs/MoveToFolder';
import { useDownload } from '../download';
import { DriveToolbar, type DriveToolbarProps } from '../toolbar/DriveToolbar';
import { EmptyState, type EmptyKind } from './EmptyState';
import { FileGrid } from './FileGrid';
import { FileTable } from './FileTable';
import { initialListState, listReducer } from './listState';
import { cacheStorage, fileCacheKey, readCachedFiles, writeCachedFiles } from './fileCache';
import { useFileStream } from './useFileStream';
import { useViewMode } from './viewMode';

export interface FileBrowserProps {
  /** The page's key: its remembered grid/list choice. */
  page: string;
  view: FileView;
  placeholder: string;
  /** Inside one drive (and folder). */
  driveId?: string;
  folderId?: string;
  tab?: DriveToolbarProps['tab'];
  title?: ReactNode;
  actions?: ReactNode;
  breadcrumb?: ReactNode;
  empty: EmptyKind;
  /** Inside another page (the folders page): the filters and the list, without a toolbar of its own. */
  embedded?: boolean;
  /** Above the files (the shared page's drives). */
  children?: ReactNode;
}

/**
 * A file list page: the toolbar (search with its 300 ms debounce, pills, grid/list), filters (library, folder),
 * the list or grid with paging (back to page 1 on any filter change), the selection's actions, and live refresh.
 */
export function FileBrowser(props: FileBrowserProps) {
  const { abilities, openUpload, session } = useDrive();
  const toast = useToast();
  const download = useDownload();
  useFileStream();
  const [mode, setMode] = useViewMode(props.page);
  const [state, dispatch] = useReducer(listReducer, initialListState);
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim());
  const [selected, setSelected] = useState<string[]>([]);
  const [deleting, setDeleting] = useState<DriveFile[] | null>(null);
  const [moving, setMoving] = useState<string[] | null>(null);
  const [restore, restoring] = useRestoreFilesMutation();

  useEffect(() => {
    dispatch({ type: 'filter', changes: { q } });
  }, [q]);
  const folderId = props.folderId ?? state.folderId;
  const query = {
    view: props.view,
    visibility: state.visibility,
    q: state.q || undefined,
    driveId: props.driveId,
    libraryId: state.libraryId,
    folderId,
    sort: state.sort,
    order: state.direction,
    page: state.page,
    pageSize: state.pageSize,
  };
  const { data: fetched, currentData, error, isLoading, isFetching } = useFilesQuery(query);
  // Cache first: until the first answer comes, the last one this tab kept for the same query is shown.
  const cacheKey = fileCacheKey(session.tenant.id, session.user.uid, query);
  const cached = useMemo(() => readCachedFiles(cacheStorage(), cacheKey), [cacheKey]);
  useEffect(() => {
    if (currentData) writeCachedFiles(cacheStorage(), cacheKey, currentData, Date.now());
  }, [cacheKey, currentData]);
  const data = fetched ?? cached;
  const libraries = useLibrariesQuery({ driveId: props.driveId });
  const folders = useFoldersQuery(
    { driveId: props.driveId ?? '' },
    { skip: !props.driveId || !!props.folderId },
  );
  const files = useMemo(() => data?.items ?? [], [data]);
  const chosen = files.filter((file) => selected.includes(file.id));
  useEffect(() => {
    setSelected([]);
  }, [state]);

  const trash = props.view === 'trash';
  const filtered = state.q !== '' || state.visibility !== 'all' || !!state.libraryId || !!state.folderId;

  const restoreChosen = async (ids: string[]) => {
    try {
      const answer = await restore({ fileIds: ids }).unwrap();
      toast.success(restoreText(answer.restored.length));
      if (answer.failed > 0) toast.error(answer.errors[0]?.message ?? TRASH_TEXTS.allRestoresFailed);
      setSelected([]);
    } catch (failure) {
      toast.error(errorMessage(failure, TRASH_TEXTS.allRestoresFailed));
    }
  };

  let body: ReactNode;
  if (isLoading && !data)
    body = (
      <div data-testid="files-skeleton">
        <Skeleton active paragraph={{ rows: 8 }} />
      </div>
    );
  else if (error)
    body = <Alert type="error" showIcon title={errorMessage(error, 'Files could not be loaded')} />;
  else if (files.length === 0)
    body = <EmptyState kind={filtered ? 'no-results' : props.empty} canUpload={abilities.canUpload} />;
  else if (mode === 'list')
    body = (
      <FileTable
        files={files}
        total={data?.total ?? 0}
        state={state}
        insideDrive={!!props.driveId}
        selected={selected}
        onSelect={setSelected}
        onSort={(field) => {
          dispatch({ type: 'sort', field });
        }}
        onPage={(page, pageSize) => {
          dispatch({ type: 'page', page, pageSize });
        }}
        onDownload={(file) => void download(file)}
        loading={isFetching}
      />
    );
  else
    body = (
      <FileGrid
        files={files}
        total={data?.total ?? 0}
        state={state}
        selected={selected}
        onSelect={setSelected}
        onPage={(page, pageSize) => {
          dispatch({ type: 'page', page, pageSize });
        }}
      />
    );

  return (
    <div data-testid={`drive-page-${props.page}`}>
      {!props.embedded && (
        <DriveToolbar
          title={props.title}
          placeholder={props.placeholder}
          search={search}
          onSearch={setSearch}
          tab={props.tab}
          visibility={state.visibility}
          onVisibility={(visibility) => {
            dispatch({ type: 'filter', changes: { visibility } });
          }}
          viewMode={mode}
          onViewMode={setMode}
          breadcrumb={props.breadcrumb}
          actions={
            <>
              {props.actions}
              {abilities.canUpload && !trash && (
                <Button
                  type="primary"
                  icon={<UploadOutlined />}
                  onClick={() => {
                    openUpload(
                      props.driveId
                        ? { driveId: props.driveId, folderId: props.folderId ?? null }
                        : undefined,
                    );
                  }}
                >
                  Upload
                </Button>
              )}
            </>
          }
        />
      )}
      {props.children}
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          aria-label="Library"
          allowClear
          placeholder="All libraries"
          style={{ minWidth: 180 }}
          value={state.libraryId}
          onChange={(libraryId?: string) => {
            dispatch({ type: 'filter', changes: { libraryId } });
          }}
          options={(libraries.data?.libraries ?? []).map((library) => ({
            value: library.id,
            label: library.name,
          }))}
        />
        {props.driveId && !props.folderId && (
          <Select
            aria-label="Folder"
            allowClear
            placeholder="All folders"
            style={{ minWidth: 180 }}
            value={state.folderId}
            onChange={(id?: string) => {
              dispatch({ type: 'filter', changes: { folderId: id } });
            }}
            options={(folders.data?.items ?? []).map((folder) => ({ value: folder.id, label: folder.name }))}
          />
        )}
        {chosen.length > 0 && (
          <>
            <Typography.Text>{chosen.length} selected</Typography.Text>
            {trash && abilities.canRestoreFiles && (
              <Button
                icon={<UndoOutlined />}
                loading={restoring.isLoading}
                onClick={() => void restoreChosen(chosen.map((f) => f.id))}
              >
                Restore
              </Button>
            )}
            {!trash && abilities.canMoveFiles && props.driveId && (
              <Button
                icon={<FolderOpenOutlined />}
                onClick={() => {
                  setMoving(chosen.map((file) => file.id));
                }}
              >
                Move
              </Button>
            )}
            {(trash ? abilities.canHardDeleteFiles : abilities.canDelete) && (
              <Button
                danger
                icon={<DeleteOutlined />}
                onClick={() => {
                  setDeleting(chosen);
                }}
              >
                {trash ? 'Delete Forever' : 'Delete'}
              </Button>
            )}
          </>
        )}
      </Space>
      {body}
      {deleting && (
        <DeleteDialog
          files={deleting}
          permanent={trash}
          onClose={(deleted) => {
            setDeleting(null);
            if (deleted) setSelected([]);
          }}
        />
      )}
      {moving && (
        <MoveToFolder
          driveId={props.driveId}
          fileIds={moving}
          onClose={() => {
            setMoving(null);
          }}
        />
      )}
    </div>
  );
}
