import { Tag } from 'antd';
import { invoiceStatusLabel } from '../domain';
import { capitalise } from '../../../ui/format';
import { tagColour } from './statusColour';

/** An invoice's status: 'Portal Pending' for portal_draft, a missing or unknown status as Draft. */
export function InvoiceStatusBadge({ status }: { status: string | null | undefined }) {
  const label = invoiceStatusLabel(status);
  const known = label === 'Draft' ? 'draft' : status;
  return <Tag color={tagColour(known)}>{label}</Tag>;
}

/** A return's display status ('Submitted', 'Not compiled' or the status). */
export function ReturnStatusBadge({ status, displayStatus }: { status: string; displayStatus: string }) {
  return <Tag color={tagColour(status)}>{capitalise(displayStatus)}</Tag>;
}
