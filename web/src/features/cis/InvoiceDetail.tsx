import {
  CalendarOutlined,
  CheckOutlined,
  CloseOutlined,
  DollarOutlined,
  EditOutlined,
  MoreOutlined,
} from '@ant-design/icons';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Dropdown,
  Row,
  Skeleton,
  Space,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useConfirm, useToast } from '../../ui/feedback';
import { taxMonthName } from '@workspace/rules';
import { useCorrectPaymentDateMutation, useInvoiceActionMutation, useInvoiceQuery } from './api';
import { invoiceAllows, statementPending } from './components/invoiceActions';
import { PayModal } from './components/PayModal';
import { RejectInvoiceModal } from './components/RejectInvoiceModal';
import { withSubmittedReturnWarning } from './components/submittedReturn';
import { CisQueryError } from './components/CisQueryError';
import { InvoiceStatusBadge } from './components/StatusBadge';
import { useCis } from './context';
import { MATERIALS_WARNING_PERCENT, materialsAtLeastPercent } from './domain';
import { capitalise, pounds, ukDate, ukDateTime } from '../../ui/format';
import { errorMessage } from '../../ui/problem';

/** /cis/invoices/:id: the invoice with its toolbar (Approve, Reject, Mark Paid, Edit, and Cancel in a menu). */
export function InvoiceDetail() {
  const { id = '' } = useParams();
  const { abilities } = useCis();
  const navigate = useNavigate();
  const toast = useToast();
  const confirm = useConfirm();
  const [paying, setPaying] = useState(false);
  const [correcting, setCorrecting] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const { data, error, isLoading } = useInvoiceQuery(id);
  const [act, actState] = useInvoiceActionMutation();
  const [correctDate] = useCorrectPaymentDateMutation();

  if (isLoading) return <Skeleton active paragraph={{ rows: 10 }} />;
  if (error || !data)
    return <CisQueryError error={error} prefix="Error loading invoice: " action="view invoices" />;
  const invoice = data.invoice;
  const amounts = invoice.amounts;

  const run = async (action: 'approve' | 'cancel', paymentDate?: string) => {
    if (action === 'cancel') {
      const ok = await confirm({
        title: 'Cancel Invoice',
        message: `Cancel invoice ${invoice.invoiceNumber}?`,
        confirmText: 'Cancel Invoice',
        cancelText: 'Keep',
        style: 'danger',
      });
      if (!ok) return;
    }
    try {
      const done = await withSubmittedReturnWarning(confirm, (confirmSubmittedReturn) =>
        act({
          id: invoice.id,
          action,
          ...(paymentDate ? { paymentDate } : {}),
          ...(confirmSubmittedReturn ? { confirmSubmittedReturn } : {}),
        }).unwrap(),
      );
      if (!done) return;
      toast.success(action === 'approve' ? 'Invoice approved' : 'Invoice cancelled');
    } catch (failure) {
      toast.error(errorMessage(failure));
    }
  };

  const pay = async (paymentDate: string) => {
    try {
      const done = await withSubmittedReturnWarning(confirm, (confirmSubmittedReturn) =>
        act({
          id: invoice.id,
          action: 'pay',
          paymentDate,
          ...(confirmSubmittedReturn ? { confirmSubmittedReturn } : {}),
        }).unwrap(),
      );
      if (!done) return;
      toast.success('Invoice marked as paid');
      setPaying(false);
    } catch (failure) {
      toast.error(errorMessage(failure));
    }
  };

  const correct = async (paymentDate: string) => {
    try {
      const done = await withSubmittedReturnWarning(confirm, (confirmSubmittedReturn) =>
        correctDate({
          id: invoice.id,
          paymentDate,
          ...(confirmSubmittedReturn ? { confirmSubmittedReturn } : {}),
        }).unwrap(),
      );
      if (!done) return;
      toast.success('Payment date corrected');
      setCorrecting(false);
    } catch (failure) {
      toast.error(errorMessage(failure));
    }
  };

  const toolbar = (
    <Space wrap>
      {invoiceAllows(invoice, 'approve', abilities) && (
        <Button
          type="primary"
          icon={<CheckOutlined />}
          loading={actState.isLoading}
          onClick={() => void run('approve')}
        >
          Approve
        </Button>
      )}
      {invoiceAllows(invoice, 'reject', abilities) && (
        <Button
          danger
          icon={<CloseOutlined />}
          onClick={() => {
            setRejecting(true);
          }}
        >
          Reject
        </Button>
      )}
      {invoiceAllows(invoice, 'pay', abilities) && (
        <Button
          type="primary"
          icon={<DollarOutlined />}
          onClick={() => {
            setPaying(true);
          }}
        >
          Mark Paid
        </Button>
      )}
      {invoice.status === 'paid' && abilities.canPay && (
        <Button
          icon={<CalendarOutlined />}
          onClick={() => {
            setCorrecting(true);
          }}
        >
          Correct payment date
        </Button>
      )}
      {invoiceAllows(invoice, 'edit', abilities) && (
        <Button icon={<EditOutlined />} onClick={() => void navigate(`/cis/invoices/${invoice.id}/edit`)}>
          Edit
        </Button>
      )}
      {invoiceAllows(invoice, 'cancel', abilities) && (
        <Dropdown
          menu={{
            items: [{ key: 'cancel', label: 'Cancel Invoice', danger: true }],
            onClick: ({ key }) => {
              if (key === 'cancel') void run('cancel');
            },
          }}
        >
          <Button icon={<MoreOutlined />} aria-label="More actions" />
        </Dropdown>
      )}
      <Link to="/cis/invoices">
        <Button>Back to list</Button>
      </Link>
    </Space>
  );

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card
        title={
          <Space>
            {`Invoice ${invoice.invoiceNumber}`}
            <InvoiceStatusBadge status={invoice.status} />
            {invoice.source === 'portal' && <Tag color="cyan">Portal</Tag>}
          </Space>
        }
        extra={toolbar}
      >
        {invoice.rejection && (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 16 }}
            title={`Rejected${invoice.rejection.rejectedAt ? ` on ${ukDateTime(invoice.rejection.rejectedAt)}` : ''}`}
            description={`Reason: ${invoice.rejection.reason}`}
          />
        )}
        {materialsAtLeastPercent(amounts.grossP, amounts.materialsP, MATERIALS_WARNING_PERCENT) && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title={`High materials percentage (${amounts.materialsPercentage}%) - please verify this is correct`}
            description={
              invoice.materialsJustification ? `Justification: ${invoice.materialsJustification}` : undefined
            }
          />
        )}
        <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
          <Descriptions.Item label="Subcontractor">
            <Link to={`/cis/subcontractors/${invoice.subcontractorId}`}>{invoice.subcontractorName}</Link>
            {invoice.piiMasked.utrMasked ? ` (${invoice.piiMasked.utrMasked})` : ''}
          </Descriptions.Item>
          <Descriptions.Item label="Invoice date">{ukDate(invoice.invoiceDate)}</Descriptions.Item>
          <Descriptions.Item label="Received date">{ukDate(invoice.receivedDate)}</Descriptions.Item>
          <Descriptions.Item label="Payment date">
            {invoice.paymentDate
              ? `${ukDate(invoice.paymentDate)}${invoice.taxMonth ? ` (${taxMonthName(invoice.taxMonth)})` : ''}`
              : 'Not paid'}
          </Descriptions.Item>
          <Descriptions.Item label="Description" span={2}>
            {invoice.description}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Row gutter={16}>
        <Col xs={24} lg={12}>
          <Card title="Amounts" size="small">
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label="Gross">{pounds(amounts.grossP)}</Descriptions.Item>
              <Descriptions.Item label="Materials">
                {`${pounds(amounts.materialsP)} (${amounts.materialsPercentage}%)`}
              </Descriptions.Item>
              <Descriptions.Item label="Labour">{pounds(amounts.labourP)}</Descriptions.Item>
              <Descriptions.Item label={`CIS deduction (${invoice.cisRate}%)`}>
                {pounds(amounts.cisDeductionP)}
              </Descriptions.Item>
              <Descriptions.Item
                label={`VAT (${invoice.vatRate}%${invoice.reverseCharge ? ', reverse charge' : ''})`}
              >
                {pounds(amounts.vatAmountP)}
              </Descriptions.Item>
              <Descriptions.Item label="Invoice total">{pounds(amounts.grossTotalP)}</Descriptions.Item>
              <Descriptions.Item label="Net payment">
                <Typography.Text strong>{pounds(amounts.netPaymentP)}</Typography.Text>
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title="CIS and Statement" size="small">
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label="Verification">
                {`${invoice.verificationSnapshot.rate}%`}
                {invoice.verificationSnapshot.reference ? ` - ${invoice.verificationSnapshot.reference}` : ''}
              </Descriptions.Item>
              <Descriptions.Item label="Statement">
                {statementPending(invoice) ? (
                  <Tag color="orange">Statement pending</Tag>
                ) : invoice.statement.issuedAt ? (
                  `Issued ${ukDate(invoice.statement.issuedAt)} by ${capitalise(invoice.statement.issuedMethod)}`
                ) : (
                  'Not required'
                )}
              </Descriptions.Item>
              <Descriptions.Item label="Approved">
                {invoice.approvedAt ? ukDateTime(invoice.approvedAt) : '-'}
              </Descriptions.Item>
              <Descriptions.Item label="Paid">
                {invoice.paidAt ? ukDateTime(invoice.paidAt) : '-'}
              </Descriptions.Item>
              <Descriptions.Item label="Created">{ukDateTime(invoice.createdAt)}</Descriptions.Item>
              <Descriptions.Item label="Updated">{ukDateTime(invoice.updatedAt)}</Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
      </Row>
      {paying && (
        <PayModal
          count={1}
          onClose={() => {
            setPaying(false);
          }}
          onPay={pay}
        />
      )}
      {correcting && invoice.paymentDate && (
        <PayModal
          count={1}
          title="Correct payment date"
          okText="Correct"
          initial={invoice.paymentDate}
          onClose={() => {
            setCorrecting(false);
          }}
          onPay={correct}
        />
      )}
      {rejecting && (
        <RejectInvoiceModal
          invoice={invoice}
          onClose={() => {
            setRejecting(false);
          }}
        />
      )}
    </Space>
  );
}
