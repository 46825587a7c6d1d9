import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import type { Session } from '../../app/api';

// The CIS screens (and recharts) load on the first visit to /cis, not with the shell.
const CisApp = lazy(() => import('./CisApp').then((module) => ({ default: module.CisApp })));

/** The CIS module as the shell mounts it at /cis/* (inside the module's error boundary). */
export function CisModule({ session }: { session: Session }) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
      <CisApp session={session} />
    </Suspense>
  );
}
