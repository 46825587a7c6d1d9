import type { Address, InviteResult, Invoice } from '@workspace/cis/contract';
import {
  DisconnectOutlined,
  EditOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  RedoOutlined,
} from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Modal, Skeleton, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useConfirm, useToast } from '../../ui/feedback';
import {
  useInviteSubcontractorMutation,
  useInvoicesQuery,
  useRevokePortalAccessMutation,
  useSubcontractorQuery,
} from './api';
import { CisQueryError } from './components/CisQueryError';
import { PortalLinkPanel } from './components/InviteModal';
import { DetailsIncompleteTag, SubcontractorNotices } from './components/DetailsIncomplete';
import { InvoiceStatusBadge } from './components/StatusBadge';
import { SubcontractorTaxYear } from './components/SubcontractorTaxYear';
import { useCis } from './context';
import { capitalise, pounds, ukDate, ukDateTime } from '../../ui/format';
import { errorMessage } from '../../ui/problem';

function addressText(address: Address | null): string {
  if (!address) return '-';
  return (
    [address.line1, address.line2, address.city, address.county, address.postcode, address.country]
      .filter(Boolean)
      .join(', ') || '-'
  );
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** /cis/subcontractors/:id: the record, identifiers masked unless the caller may unmask them ('Show'). */
export function SubcontractorDetail() {
  const { id = '' } = useParams();
  const { abilities } = useCis();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const toast = useToast();
  const [unmask, setUnmask] = useState(false);
  const [revokePortalAccess, revokeState] = useRevokePortalAccessMutation();
  const [invite, inviteState] = useInviteSubcontractorMutation();
  const [resentInvitation, setResentInvitation] = useState<InviteResult | null>(null);
  const { data, error, isLoading, isFetching } = useSubcontractorQuery({
    id,
    unmask: unmask && abilities.canUnmask,
  });
  const invoices = useInvoicesQuery(
    { search: '', status: 'all', period: 'all', subcontractorId: id, page: 1, pageSize: 10 },
    { skip: !abilities.canReadInvoices },
  );

  if (isLoading) return <Skeleton active paragraph={{ rows: 10 }} />;
  if (error || !data)
    return (
      <CisQueryError error={error} prefix="Error loading subcontractor: " action="view subcontractors" />
    );
  const sub = data.subcontractor;
  const showClear = unmask && abilities.canUnmask;

  // Not in the spec: ends the subcontractor's portal sessions at once and expires their unused links (the bff's
  // POST /api/portal/sessions/revoke needs cis.portal.invite, the scope behind canInvite). docs/web.md › CIS screens.
  const revokePortal = async () => {
    const ok = await confirm({
      title: 'Revoke portal access',
      message: `Sign ${sub.name} out of the portal now? Their unused sign-in links stop working too; they need a new invitation to sign in again.`,
      confirmText: 'Revoke',
      style: 'danger',
    });
    if (!ok) return;
    try {
      await revokePortalAccess(sub.id).unwrap();
      toast.success('Portal access revoked');
    } catch (failure) {
      toast.error(errorMessage(failure, 'Failed to revoke portal access'));
    }
  };

  // The invitation's email was not delivered: Resend sends a new invitation (the stored one's sign-in link lasted 15
  // minutes and cannot be used any more); the answer shows as the invite flow's does (sent, or the link to share).
  const resendInvitation = async () => {
    try {
      setResentInvitation(await invite({ subcontractorId: sub.id }).unwrap());
    } catch (failure) {
      toast.error(errorMessage(failure, 'Failed to send invitation'));
    }
  };

  const unmaskButton = abilities.canUnmask && (
    <Button
      size="small"
      type="link"
      loading={isFetching}
      icon={showClear ? <EyeInvisibleOutlined /> : <EyeOutlined />}
      onClick={() => {
        setUnmask((value) => !value);
      }}
    >
      {showClear ? 'Hide' : 'Show'}
    </Button>
  );

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <SubcontractorNotices sub={sub} />
      {data.invitationEmailFailure && (
        <Alert
          type="warning"
          showIcon
          data-testid="invitation-email-failed"
          title="The portal invitation email could not be delivered"
          description={`${ukDateTime(data.invitationEmailFailure.failedAt)}: ${data.invitationEmailFailure.reason}. Please share the link manually or send a new invitation.`}
          action={
            abilities.canInvite && (
              <Button
                size="small"
                icon={<RedoOutlined />}
                data-testid="invitation-email-resend"
                loading={inviteState.isLoading}
                onClick={() => void resendInvitation()}
              >
                Resend
              </Button>
            )
          }
        />
      )}
      {/* Only while open: a closed Modal would still take a slot (and its gap) in this Space. */}
      {resentInvitation && (
        <Modal
          open
          title="Invitation Sent Again"
          onCancel={() => {
            setResentInvitation(null);
          }}
          footer={
            <Button
              type="primary"
              onClick={() => {
                setResentInvitation(null);
              }}
            >
              Close
            </Button>
          }
        >
          <PortalLinkPanel result={resentInvitation} email={sub.email} />
        </Modal>
      )}
      <Card
        title={
          <Space>
            {sub.name}
            {sub.archived || !sub.active ? <Tag>Archived</Tag> : <Tag color="green">Active</Tag>}
            <DetailsIncompleteTag sub={sub} />
          </Space>
        }
        extra={
          <Space>
            {abilities.canInvite && sub.portalAccess && (
              <Button
                danger
                icon={<DisconnectOutlined />}
                loading={revokeState.isLoading}
                onClick={() => void revokePortal()}
              >
                Revoke portal access
              </Button>
            )}
            {abilities.canWriteSubcontractors && (
              <Button
                icon={<EditOutlined />}
                onClick={() => void navigate(`/cis/subcontractors/${sub.id}/edit`)}
              >
                Edit
              </Button>
            )}
            <Link to="/cis/subcontractors">
              <Button>Back to list</Button>
            </Link>
          </Space>
        }
      >
        <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
          <Descriptions.Item label="Type">{capitalise(sub.type)}</Descriptions.Item>
          <Descriptions.Item label="UTR">
            <Space>
              <span data-testid="utr-value">{showClear ? (sub.utr ?? sub.utrMasked) : sub.utrMasked}</span>
              {unmaskButton}
            </Space>
          </Descriptions.Item>
          {sub.type === 'individual' && (
            <Descriptions.Item label="NINO">
              <span data-testid="nino-value">
                {showClear ? (sub.nino ?? sub.ninoMasked) : sub.ninoMasked}
              </span>
            </Descriptions.Item>
          )}
          {sub.type === 'company' && (
            <Descriptions.Item label="Company number">{sub.companyNumber}</Descriptions.Item>
          )}
          <Descriptions.Item label="VAT number">{sub.vatNumber}</Descriptions.Item>
          <Descriptions.Item label="Email">{sub.email}</Descriptions.Item>
          <Descriptions.Item label="Phone">{sub.phone}</Descriptions.Item>
          <Descriptions.Item label="Mobile">{sub.mobile}</Descriptions.Item>
          <Descriptions.Item label="Registered address">
            {addressText(sub.registeredAddress)}
          </Descriptions.Item>
          <Descriptions.Item label="Trading address">
            {sub.tradingAddressSameAsRegistered ? 'Same as registered' : addressText(sub.tradingAddress)}
          </Descriptions.Item>
          <Descriptions.Item label="GDPR consent">
            {yesNo(sub.gdprConsent)}
            {sub.gdprConsentDate ? ` (${ukDate(sub.gdprConsentDate)})` : ''}
          </Descriptions.Item>
          <Descriptions.Item label="Marketing consent">{yesNo(sub.marketingConsent)}</Descriptions.Item>
          <Descriptions.Item label="Portal access">{yesNo(sub.portalAccess)}</Descriptions.Item>
          <Descriptions.Item label="Created">{ukDate(sub.createdAt)}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title="Verification" size="small">
        <Descriptions column={{ xs: 1, md: 3 }} size="small">
          <Descriptions.Item label="Status">{capitalise(sub.verification.status)}</Descriptions.Item>
          <Descriptions.Item label="Rate">{`${sub.verification.rate}%`}</Descriptions.Item>
          <Descriptions.Item label="Method">
            {capitalise(sub.verification.method) ||
              (sub.verification.verifiedDate ? '-' : 'Not verified yet')}
          </Descriptions.Item>
          <Descriptions.Item label="Reference">{sub.verification.reference}</Descriptions.Item>
          <Descriptions.Item label="Verified date">{ukDate(sub.verification.verifiedDate)}</Descriptions.Item>
          <Descriptions.Item label="Notes">{sub.verification.notes}</Descriptions.Item>
        </Descriptions>
      </Card>
      {abilities.canReadInvoices && <SubcontractorTaxYear subcontractorId={sub.id} />}
      {abilities.canReadInvoices && (
        <Card title="Recent Invoices" size="small">
          <Table<Invoice>
            rowKey="id"
            size="small"
            loading={invoices.isLoading}
            dataSource={invoices.data?.items ?? []}
            pagination={false}
            locale={{ emptyText: 'No invoices found' }}
            columns={[
              {
                title: 'Invoice',
                key: 'number',
                render: (_, row) => <Link to={`/cis/invoices/${row.id}`}>{row.invoiceNumber}</Link>,
              },
              { title: 'Date', key: 'date', render: (_, row) => ukDate(row.invoiceDate) },
              { title: 'Gross', key: 'gross', render: (_, row) => pounds(row.amounts.grossP) },
              { title: 'CIS', key: 'cis', render: (_, row) => pounds(row.amounts.cisDeductionP) },
              {
                title: 'Status',
                key: 'status',
                render: (_, row) => <InvoiceStatusBadge status={row.status} />,
              },
            ]}
          />
        </Card>
      )}
    </Space>
  );
}
