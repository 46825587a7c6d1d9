import type { Subcontractor } from '@workspace/cis/contract';
import { Alert, Tag, Tooltip } from 'antd';
import { Link } from 'react-router';

const LABELS: Record<Subcontractor['missingDetails'][number], string> = {
  address: 'address',
  gdprConsent: 'GDPR consent',
};

/** What an invited subcontractor still lacks, in words ('address and GDPR consent'). */
export function missingText(sub: Pick<Subcontractor, 'missingDetails'>): string {
  return sub.missingDetails.map((detail) => LABELS[detail]).join(' and ');
}

/** 'Details incomplete' beside a subcontractor made by Invite to Portal, until its address and consent are filled in. */
export function DetailsIncompleteTag({
  sub,
}: {
  sub: Pick<Subcontractor, 'detailsIncomplete' | 'missingDetails'>;
}) {
  if (!sub.detailsIncomplete) return null;
  return (
    <Tooltip title={`Missing: ${missingText(sub)}`}>
      <Tag color="orange">Details incomplete</Tag>
    </Tooltip>
  );
}

/** The detail page's notes: what an invited record lacks, and where a merged duplicate went. */
export function SubcontractorNotices({
  sub,
}: {
  sub: Pick<Subcontractor, 'detailsIncomplete' | 'missingDetails' | 'archiveNote' | 'mergedInto'>;
}) {
  return (
    <>
      {sub.detailsIncomplete && (
        <Alert
          type="warning"
          showIcon
          title="Details incomplete"
          description={`This subcontractor was added by a portal invitation. Add their ${missingText(sub)} before paying them.`}
        />
      )}
      {sub.archiveNote && (
        <Alert
          type="info"
          showIcon
          title={sub.archiveNote}
          description={
            sub.mergedInto ? (
              <Link to={`/cis/subcontractors/${sub.mergedInto}`}>Open the record kept</Link>
            ) : null
          }
        />
      )}
    </>
  );
}
