// The audit log's place in the staff shell: its own navigation entry for holders of an audit read scope, and its
// route, whose screens load on the first visit (their own chunk, as a module's).
import { AuditOutlined } from '@ant-design/icons';
import { SHELL_PAGES } from '@workspace/rules';
import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import type { Session } from '../../app/api';
import { canReadAudit } from './scopes';

export const AUDIT_ROUTE = SHELL_PAGES.audit;

const AuditLog = lazy(() => import('./AuditLog'));

/** The navigation entry, for the shell's menu (undefined: the user reads no audit entries). */
export function auditNavItem(session: Session) {
  if (!canReadAudit(session.scopes)) return undefined;
  return { key: AUDIT_ROUTE, label: <Link to={AUDIT_ROUTE}>Audit log</Link>, icon: <AuditOutlined /> };
}

/** /audit: the audit log, or Access Restricted for a user without an audit read scope. */
export function AuditLogRoute({ session }: { session: Session }) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} />}>
      <AuditLog session={session} />
    </Suspense>
  );
}
