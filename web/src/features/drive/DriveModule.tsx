import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import type { Session } from '../../app/api';

// The drive's screens load on the first visit to /drive, not with the shell.
const DriveApp = lazy(() => import('./DriveApp').then((module) => ({ default: module.DriveApp })));

/** The drive module as the shell mounts it at /drive/* (inside the module's error boundary). */
export function DriveModule({ session }: { session: Session }) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
      <DriveApp session={session} />
    </Suspense>
  );
}
