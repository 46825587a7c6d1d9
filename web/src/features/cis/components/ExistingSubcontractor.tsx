import { Alert } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The record a refusal names: a duplicate identifier (409 duplicate_subcontractor) or an invitee on file. */
export interface ExistingRecord {
  id: string;
  name: string;
  email?: string;
}

/**
 * The existing subcontractor a failed save or invitation names (the problem's `existing` member, ADR 0039), or
 * undefined when the failure is of another kind.
 */
export function existingRecordOf(failure: unknown): ExistingRecord | undefined {
  if (typeof failure !== 'object' || failure === null || !('data' in failure)) return undefined;
  const data = failure.data;
  if (typeof data !== 'object' || data === null) return undefined;
  const existing = (data as { existing?: unknown }).existing;
  if (typeof existing !== 'object' || existing === null) return undefined;
  const { id, name, email } = existing as Record<string, unknown>;
  if (typeof id !== 'string' || typeof name !== 'string') return undefined;
  return { id, name, ...(typeof email === 'string' ? { email } : {}) };
}

/** The refusal with a link to the record it names ('Open Jane Smith'), and any action beside it. */
export function ExistingSubcontractorAlert({
  message,
  existing,
  action,
  onOpen,
}: {
  message: string;
  existing: ExistingRecord;
  action?: ReactNode;
  /** Called as the link is followed (a modal closes itself). */
  onOpen?: () => void;
}) {
  return (
    <Alert
      type="error"
      showIcon
      data-testid="duplicate-subcontractor"
      title={message}
      description={
        <Link to={`/cis/subcontractors/${existing.id}`} onClick={onOpen}>
          Open {existing.name}
        </Link>
      }
      action={action}
    />
  );
}
