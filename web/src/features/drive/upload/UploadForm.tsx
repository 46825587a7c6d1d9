import { CheckCircleFilled, InboxOutlined, LockOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Collapse,
  Form,
  List,
  Progress,
  Result,
  Select,
  Space,
  Switch,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { fileTypeClass } from '@workspace/drive/domain';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router';
import { useToast } from '../../../ui/feedback';
import { invalidateFiles, useDrivesQuery, useFoldersQuery, useLibrariesQuery } from '../api/driveApi';
import { useDrive } from '../context';
import { formatBytes } from '../list/format';
import { uploadList, uploadStage, type UploadItem } from './progress';
import { useReferenceWarning } from './referenceWarning';
import { browserUploaderDeps, FILE_REF_WRITE_FAILED, uploadFiles, type UploaderDeps } from './uploader';

/** How long the success animation shows before the redirect. */
export const SUCCESS_REDIRECT_MS = 1_500;

export interface UploadFormProps {
  /** A drive (and folder) fixed by the page: no drive picker. */
  fixed?: { driveId: string; folderId?: string | null };
  /** Stay on the page after success (the dialog inside a drive). */
  noRedirect?: boolean;
  onDone?: () => void;
  /** For tests of the form: the uploader's seams. */
  deps?: UploaderDeps;
}

type Phase = 'idle' | 'busy' | 'success';

const isPdf = (file: File) => fileTypeClass(file.name, file.type) === 'pdf';

/**
 * The upload form (the dialog's and the standalone page's): drive, library, the files, Advanced Options (folder,
 * Require signatures), then the staged progress bar with Cancel Upload, the success animation and the redirect.
 */
export function UploadForm({ fixed, noRedirect, onDone, deps }: UploadFormProps) {
  const { abilities, session } = useDrive();
  const toast = useToast();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const [driveId, setDriveId] = useState<string | undefined>(fixed?.driveId);
  const [libraryId, setLibraryId] = useState<string | undefined>();
  const [folderId, setFolderId] = useState<string | null>(fixed?.folderId ?? null);
  const [requireSignatures, setRequireSignatures] = useState(true);
  const [files, setFiles] = useState<File[]>([]);
  const [driveError, setDriveError] = useState('');
  const [phase, setPhase] = useState<Phase>('idle');
  const [percent, setPercent] = useState(0);
  const [items, setItems] = useState<UploadItem[]>([]);
  const list = useMemo(() => uploadList(setItems), []);
  const controller = useRef<AbortController | null>(null);
  const warnReference = useReferenceWarning();

  const drives = useDrivesQuery(undefined, { skip: !!fixed });
  const libraries = useLibrariesQuery({ driveId }, { skip: !driveId });
  const folders = useFoldersQuery({ driveId: driveId ?? '' }, { skip: !driveId });
  const pickable = (drives.data?.drives ?? []).filter((drive) => drive.type !== 'personal');
  const driveLibraries = (libraries.data?.libraries ?? []).filter((library) => library.driveId === driveId);

  // The first library of the drive is preselected.
  useEffect(() => {
    setLibraryId(driveLibraries[0]?.id);
  }, [driveId, libraries.data]);
  useEffect(
    () => () => {
      list.clear();
    },
    [list],
  );

  if (!abilities.canUpload)
    return (
      <div data-testid="upload-permission-denied">
        <Result
          icon={<LockOutlined />}
          status="403"
          title="Permission denied"
          subTitle={
            <>
              You don&apos;t have permission to upload files. This requires the{' '}
              <Typography.Text code>file:upload</Typography.Text> permission.
            </>
          }
        />
      </div>
    );

  const anyPdf = files.some(isPdf);

  const start = async () => {
    if (!driveId) {
      setDriveError('Please select a drive');
      return;
    }
    if (!libraryId || files.length === 0) return;
    const abort = new AbortController();
    controller.current = abort;
    setPhase('busy');
    setPercent(0);
    const progress = files.map(() => 0);
    const ids = files.map((file, index) => `${index}:${file.name}`);
    files.forEach((file, index) => {
      list.add({ id: ids[index] ?? file.name, name: file.name, size: file.size });
    });
    const outcomes = await uploadFiles(
      files,
      { driveId, libraryId, folderId, requireSignatures: anyPdf && requireSignatures },
      deps ?? browserUploaderDeps(() => session.csrfToken),
      {
        signal: abort.signal,
        onProgress: (index, value) => {
          progress[index] = value;
          list.progress(ids[index] ?? '', value);
          setPercent(Math.floor(progress.reduce((sum, each) => sum + each, 0) / progress.length));
        },
      },
    );
    controller.current = null;
    dispatch(invalidateFiles());
    if (outcomes.some((outcome) => outcome.status === 'cancelled')) {
      toast.info('Upload cancelled');
      list.clear();
      setPhase('idle');
      setPercent(0);
      return;
    }
    const failed = outcomes.filter((outcome) => outcome.status === 'error').length;
    outcomes.forEach((outcome, index) => {
      const file = files[index];
      const id = ids[index] ?? '';
      if (!file) return;
      if (outcome.status === 'complete') {
        list.complete(id);
        toast.success(`File "${file.name}" uploaded successfully`);
        const registered = outcome.registered;
        if (registered.code === FILE_REF_WRITE_FAILED)
          warnReference({ id: registered.file?.id ?? '', name: registered.file?.name ?? file.name });
      } else if (outcome.status === 'error') {
        list.fail(id, outcome.error.message);
        toast.error(`Failed to upload "${file.name}"`);
      }
    });
    if (failed > 1) toast.error(`${failed} file(s) failed to upload`);
    if (failed === outcomes.length) {
      setPhase('idle');
      setPercent(0);
      return;
    }
    setPercent(100);
    setPhase('success');
    setTimeout(() => {
      onDone?.();
      if (!noRedirect) void navigate('/drive/all');
    }, SUCCESS_REDIRECT_MS);
  };

  if (phase === 'success')
    return (
      <div data-testid="upload-success">
        <Result
          className="drive-upload-success"
          icon={<CheckCircleFilled style={{ color: '#52c41a', animation: 'drive-pop 0.6s ease-out' }} />}
          title="Upload Complete!"
          extra={
            <style>
              {
                '@keyframes drive-pop{0%{transform:scale(0.2);opacity:0}70%{transform:scale(1.15)}100%{transform:scale(1);opacity:1}}'
              }
            </style>
          }
        />
      </div>
    );

  const busy = phase === 'busy';
  const errors = items.filter((item) => item.status === 'error');
  return (
    <Form layout="vertical" data-testid="upload-form" disabled={busy}>
      {!fixed && (
        <Form.Item
          label="Drive"
          required
          validateStatus={driveError ? 'error' : undefined}
          help={driveError || undefined}
        >
          <Select
            aria-label="Drive"
            placeholder="Choose a drive"
            loading={drives.isLoading}
            value={driveId}
            onChange={(id: string) => {
              setDriveId(id);
              setDriveError('');
              setFolderId(null);
            }}
            options={pickable.map((drive) => ({ value: drive.id, label: drive.name }))}
          />
        </Form.Item>
      )}
      {driveId && (
        <Form.Item label="Library" required>
          {!libraries.isLoading && driveLibraries.length === 0 ? (
            <Typography.Text type="secondary">No libraries in this drive.</Typography.Text>
          ) : (
            <Select
              aria-label="Library"
              loading={libraries.isLoading}
              value={libraryId}
              onChange={(id: string) => {
                setLibraryId(id);
              }}
              options={driveLibraries.map((library) => ({ value: library.id, label: library.name }))}
            />
          )}
        </Form.Item>
      )}
      <Upload.Dragger
        multiple
        showUploadList={false}
        beforeUpload={(_file, chosen) => {
          setFiles(chosen);
          return false;
        }}
        data-testid="upload-zone"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">Drag and drop files here, or click to choose</p>
      </Upload.Dragger>
      {files.length > 0 && (
        <List
          size="small"
          data-testid="upload-chosen"
          dataSource={files}
          renderItem={(file) => (
            <List.Item>
              <Space>
                <Typography.Text>{file.name}</Typography.Text>
                <Typography.Text type="secondary">{formatBytes(file.size)}</Typography.Text>
                {isPdf(file) ? <Tag color="green">PDF detected</Tag> : <Tag>Cannot be signed</Tag>}
              </Space>
            </List.Item>
          )}
        />
      )}
      <Alert
        style={{ margin: '12px 0' }}
        type="info"
        showIcon
        title="File access follows the permissions of the library you upload to."
      />
      <Collapse
        size="small"
        items={[
          {
            key: 'advanced',
            label: 'Advanced Options',
            children: (
              <>
                <Form.Item label="Folder">
                  <Select
                    aria-label="Folder"
                    value={folderId ?? ''}
                    onChange={(id: string) => {
                      setFolderId(id || null);
                    }}
                    options={[
                      { value: '', label: 'Root folder' },
                      ...(folders.data?.items ?? []).map((folder) => ({
                        value: folder.id,
                        label: folder.name,
                      })),
                    ]}
                  />
                </Form.Item>
                {anyPdf && (
                  <Form.Item label="Require signatures" style={{ marginBottom: 0 }}>
                    <Switch
                      aria-label="Require signatures"
                      checked={requireSignatures}
                      onChange={setRequireSignatures}
                    />
                  </Form.Item>
                )}
              </>
            ),
          },
        ]}
      />
      {busy && (
        <div data-testid="upload-progress" style={{ marginTop: 16 }}>
          <Progress percent={percent} status="active" />
          <Typography.Text data-testid="upload-stage">{uploadStage(percent)}</Typography.Text>
        </div>
      )}
      {items.length > 0 && (
        <List
          size="small"
          data-testid="upload-items"
          dataSource={items}
          renderItem={(item) => (
            <List.Item data-status={item.status}>
              <Space orientation="vertical" style={{ width: '100%' }} size={0}>
                <Typography.Text>{item.name}</Typography.Text>
                <Progress
                  size="small"
                  percent={item.progress}
                  status={
                    item.status === 'error' ? 'exception' : item.status === 'complete' ? 'success' : 'active'
                  }
                />
                {item.message && <Typography.Text type="danger">{item.message}</Typography.Text>}
              </Space>
            </List.Item>
          )}
        />
      )}
      {errors.length > 0 && !busy && (
        <Alert
          style={{ marginTop: 12 }}
          type="error"
          showIcon
          title={errors[0]?.message}
          data-testid="upload-error"
        />
      )}
      <Space style={{ marginTop: 16, justifyContent: 'flex-end', width: '100%' }}>
        {busy ? (
          <Button danger disabled={false} onClick={() => controller.current?.abort()}>
            Cancel Upload
          </Button>
        ) : (
          <Button
            type="primary"
            disabled={files.length === 0 || (!!driveId && !libraryId)}
            onClick={() => void start()}
          >
            Upload
          </Button>
        )}
      </Space>
    </Form>
  );
}
