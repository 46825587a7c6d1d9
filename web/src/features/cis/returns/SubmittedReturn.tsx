import type { CisReturn } from '@workspace/cis/contract';
import { FileTextOutlined } from '@ant-design/icons';
import { CIS_DECLARATION_TEXTS, taxMonthName, type CisDeclarationKey } from '@workspace/rules';
import { Alert, Button, Descriptions, Space, Tooltip, Typography } from 'antd';
import { ukDateTime } from '../../../ui/format';
import { useToast } from '../../../ui/feedback';
import { useCis } from '../context';
import { downloadFile } from '../download';

/** What "submitted" means in this product (issue 13): said in the submit dialog, the submitted panel and docs/cis.md. */
export const NO_GATEWAY =
  'This product has no live connection to HMRC’s gateway: nothing is sent to HMRC from here. Submitting locks the return, records the declarations and who made them, and keeps its CIS300 document ready to file. To file it, send the document to HMRC with software that connects to HMRC’s gateway, or enter the same figures in HMRC’s CIS online service, by the filing deadline.';

/** Why a submitter without cis.pii.unmask cannot download the CIS300 document. */
export const CIS300_NEEDS_UNMASK =
  'The CIS300 document carries every UTR and NINO in clear: downloading it needs the permission to see unmasked identifiers';

const DECLARATION_ORDER: CisDeclarationKey[] = [
  'employmentStatus',
  'verification',
  'informationCorrect',
  'inactivity',
];

/** Who submitted a return, as the person reading it knows them. */
function submitterText(
  submittedBy: string | null,
  submittedByName: string | null,
  self: { uid: string; name: string },
): string {
  if (!submittedBy || submittedBy === 'system')
    return 'Not recorded (submitted before declarations were asked)';
  if (submittedBy === self.uid) return `${self.name} (you)`;
  return submittedByName ?? 'Another user of this workspace';
}

/**
 * A submitted return (replacing the bare 'Locked'): who submitted it and when, the declarations they made, its CIS300
 * document (download) and IRmark, and plainly what "submitted" means here.
 */
export function SubmittedReturn({ ret }: { ret: CisReturn }) {
  const { abilities, session } = useCis();
  const toast = useToast();
  const self = { uid: session.user.uid, name: session.user.displayName || session.user.email };
  const declared = DECLARATION_ORDER.filter((key) => ret.declarations?.[key] === true);

  const download = () => {
    downloadFile(`/api/cis/returns/${encodeURIComponent(ret.id)}/cis300.xml`, `cis300-${ret.id}.xml`).catch(
      (error: unknown) => {
        toast.error(error instanceof Error ? error.message : 'Download failed');
      },
    );
  };

  return (
    <Space orientation="vertical" size="small" style={{ width: '100%' }} data-testid="submitted-return">
      <Alert
        type="success"
        showIcon
        title={`${ret.amendmentOf ? 'Amended return' : 'Return'} for the ${taxMonthName(ret.taxMonth)} submitted${
          ret.submittedAt ? ` on ${ukDateTime(ret.submittedAt)}` : ''
        }: ready to file with HMRC`}
        description={NO_GATEWAY}
      />
      <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
        <Descriptions.Item label="Submitted by">
          {submitterText(ret.submittedBy, ret.submittedByName, self)}
        </Descriptions.Item>
        <Descriptions.Item label="Submitted on">
          {ret.submittedAt ? ukDateTime(ret.submittedAt) : '-'}
        </Descriptions.Item>
        <Descriptions.Item label="IRmark">
          {ret.submissionRef ? (
            <Typography.Text code copyable data-testid="return-irmark">
              {ret.submissionRef}
            </Typography.Text>
          ) : (
            '-'
          )}
        </Descriptions.Item>
        <Descriptions.Item label="Document">
          {ret.hasCis300 ? (
            // The document carries every UTR and NINO in clear: the service also asks for cis.pii.unmask (ADR 0029).
            <Tooltip title={abilities.canUnmask ? undefined : CIS300_NEEDS_UNMASK}>
              <Button
                size="small"
                icon={<FileTextOutlined />}
                disabled={!abilities.canSubmit || !abilities.canUnmask}
                onClick={download}
              >
                Download CIS300 XML
              </Button>
            </Tooltip>
          ) : (
            'Not kept'
          )}
        </Descriptions.Item>
        {ret.amendmentOf && (
          <Descriptions.Item label="Amends" span={2}>
            The return submitted earlier for this month (this one replaces it)
          </Descriptions.Item>
        )}
        <Descriptions.Item label="Declarations made" span={2}>
          {declared.length === 0 ? (
            'Not recorded (submitted before declarations were asked)'
          ) : (
            <ul style={{ margin: 0, paddingInlineStart: 18 }} data-testid="return-declarations">
              {declared.map((key) => (
                <li key={key}>{CIS_DECLARATION_TEXTS[key]}</li>
              ))}
            </ul>
          )}
        </Descriptions.Item>
      </Descriptions>
    </Space>
  );
}
