import { LockOutlined } from '@ant-design/icons';
import { Empty, Result } from 'antd';
import { Link } from 'react-router';

/** The empty states of drive.md §2, each with its short text. */
export type EmptyKind =
  | 'no-files'
  | 'no-results'
  | 'no-folders'
  | 'no-shared'
  | 'no-starred'
  | 'no-trash'
  | 'no-recent'
  | 'no-libraries'
  | 'no-drives';

const TEXTS: Record<EmptyKind, { title: string; hint?: string }> = {
  'no-files': { title: 'No files found', hint: 'Upload a file to get started.' },
  'no-results': { title: 'No files found', hint: 'Nothing matches your search or filters.' },
  'no-folders': { title: 'No folders yet', hint: 'Create a folder to organise your files.' },
  'no-shared': { title: 'No shared files', hint: 'Files shared with you appear here.' },
  'no-starred': { title: 'No starred files', hint: 'Star a file to find it here quickly.' },
  'no-trash': { title: 'Trash is empty', hint: 'Deleted files stay here until you empty the trash.' },
  'no-recent': { title: 'No recent files', hint: 'Files you open or upload appear here.' },
  'no-libraries': { title: 'No libraries found' },
  'no-drives': { title: 'No drives available' },
};

/** `canUpload`: the no-files state links to the upload page only for a user who may upload. */
export function EmptyState({ kind, canUpload = true }: { kind: EmptyKind; canUpload?: boolean }) {
  const text = TEXTS[kind];
  return (
    <Empty
      data-testid={`empty-${kind}`}
      description={
        <>
          <div>{text.title}</div>
          {text.hint && <div style={{ opacity: 0.7 }}>{text.hint}</div>}
          {kind === 'no-files' && canUpload && <Link to="/drive/upload">Upload files</Link>}
        </>
      }
    />
  );
}

/** The no-permission state: 'Access Denied'. */
export function AccessDenied({ detail }: { detail: string }) {
  return (
    <div data-testid="empty-no-permission">
      <Result
        status="403"
        icon={<LockOutlined style={{ fontSize: 48 }} />}
        title="Access Denied"
        subTitle={detail}
      />
    </div>
  );
}
