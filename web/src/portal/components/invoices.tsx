import {
  Alert,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Form,
  Grid,
  Input,
  Row,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import type { PortalRecords } from '@workspace/cis/contract';
import { penceOfInput } from '@workspace/rules';
// The CIS domain rules the staff app uses (pure, no I/O): the same thresholds and messages as the server.
import {
  calculateInvoice,
  MATERIALS_WARNING_PERCENT,
  materialsAtLeastPercent,
} from '../../features/cis/domain';
import { amountInputError, validateInvoiceForm } from '../../features/cis/validation';
import { InvoiceAmountFields } from '../../features/cis/components/InvoiceAmountFields';
import { tagColour } from '../../features/cis/components/statusColour';
// The date field's module registers dayjs's parsing of typed DD/MM/YYYY dates.
import { UK_DATE_FORMAT } from '../../ui/DateField';
import { FieldCol } from '../../ui/FieldCol';
import { pounds, ukDate } from '../../ui/format';
import { readProblem } from '../../ui/problem';
import { portalFetch, SOMETHING_WRONG, type PortalSession } from '../session';

export type PortalInvoice = PortalRecords['invoices'][number];

/**
 * The Paid column: the payment date of a paid invoice only. A cancelled or rejected invoice was never paid as far as
 * the subcontractor is concerned, whatever dates it kept (issue 13).
 */
export function paidText(invoice: PortalInvoice): string {
  if (invoice.status === 'paid' && invoice.paymentDate) return ukDate(invoice.paymentDate);
  if (invoice.status === 'cancelled' || invoice.status === 'rejected') return '-';
  return 'Not paid';
}

/** The invoice's status, and for a rejected one the contractor's reason beneath it. */
export function InvoiceStatus({ invoice }: { invoice: PortalInvoice }) {
  return (
    <div style={{ display: 'grid', gap: 4, justifyItems: 'start' }}>
      <Tag color={tagColour(invoice.status)}>{invoice.statusLabel}</Tag>
      {invoice.status === 'rejected' && invoice.rejectionReason ? (
        <Typography.Text type="secondary" data-testid="portal-rejection-reason">
          Reason: {invoice.rejectionReason}
        </Typography.Text>
      ) : null}
    </div>
  );
}

/**
 * The subcontractor's invoices: a table on a wide screen; on a phone one block per invoice, so its status and a
 * rejection's reason are read without scrolling sideways.
 */
export function PortalInvoices({ invoices }: { invoices: PortalInvoice[] }) {
  const screens = Grid.useBreakpoint();
  if (screens.md === false) {
    if (invoices.length === 0) return <Typography.Text type="secondary">No invoices yet</Typography.Text>;
    return (
      <div style={{ display: 'grid' }}>
        {invoices.map((invoice) => (
          <div
            key={invoice.id}
            data-testid="portal-invoice"
            style={{ display: 'grid', gap: 4, padding: '12px 0', borderBottom: '1px solid #f0f0f0' }}
          >
            <div style={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 8 }}>
              <Typography.Text strong style={{ overflowWrap: 'anywhere' }}>
                {invoice.invoiceNumber}
              </Typography.Text>
              <Typography.Text type="secondary">{ukDate(invoice.invoiceDate)}</Typography.Text>
            </div>
            <InvoiceStatus invoice={invoice} />
            <Typography.Text>
              {`Gross ${pounds(invoice.amounts.grossP)} · CIS ${pounds(invoice.amounts.cisDeductionP)} · Net ${pounds(invoice.amounts.netPaymentP)}`}
            </Typography.Text>
            <Typography.Text type="secondary">{`Paid: ${paidText(invoice)}`}</Typography.Text>
          </div>
        ))}
      </div>
    );
  }
  return (
    <Table
      rowKey="id"
      scroll={{ x: 'max-content' }}
      dataSource={invoices}
      locale={{ emptyText: 'No invoices yet' }}
      columns={[
        {
          title: 'Invoice',
          render: (_, row) => (
            <div style={{ display: 'grid' }}>
              <span>{row.invoiceNumber}</span>
              <Typography.Text type="secondary">{ukDate(row.invoiceDate)}</Typography.Text>
            </div>
          ),
        },
        {
          title: 'Status',
          // A rejection's reason wraps in a column of readable width.
          onCell: () => ({ style: { minWidth: 150, maxWidth: 280, whiteSpace: 'normal' } }),
          render: (_, row) => <InvoiceStatus invoice={row} />,
        },
        { title: 'Gross', render: (_, row) => pounds(row.amounts.grossP) },
        { title: 'CIS', render: (_, row) => pounds(row.amounts.cisDeductionP) },
        { title: 'Net', render: (_, row) => pounds(row.amounts.netPaymentP) },
        { title: 'Paid', render: (_, row) => paidText(row) },
      ]}
    />
  );
}

interface InvoiceFormValues {
  invoiceNumber: string;
  invoiceDate: Dayjs | null;
  description: string;
  gross: string;
  materials: string;
  vatRate: number;
  reverseCharge: boolean;
  materialsJustification: string;
}

const invoiceDefaults: InvoiceFormValues = {
  invoiceNumber: '',
  invoiceDate: null,
  description: '',
  gross: '',
  materials: '0',
  vatRate: 20,
  reverseCharge: false,
  materialsJustification: '',
};

/** The server's field names (after 'body.') to the form's. */
const formFieldOf: Record<string, keyof InvoiceFormValues> = {
  invoiceNumber: 'invoiceNumber',
  invoiceDate: 'invoiceDate',
  description: 'description',
  grossP: 'gross',
  amounts: 'gross',
  materialsP: 'materials',
  vatRate: 'vatRate',
  reverseCharge: 'reverseCharge',
  materialsJustification: 'materialsJustification',
};

const CORRECT_FIELDS = 'Please correct the highlighted fields.';

/**
 * What the contractor will deduct and pay for these amounts, before the subcontractor submits: the one calculation
 * of the service (the cis domain's calculateInvoice, the staff form's preview too) at their own deduction rate.
 */
function DeductionPreview({
  gross,
  materials,
  vatRate,
  reverseCharge,
  cisRate,
}: {
  gross: string | undefined;
  materials: string | undefined;
  vatRate: number;
  reverseCharge: boolean;
  cisRate: number;
}) {
  const invalid =
    amountInputError(gross, 'gross') !== null || amountInputError(materials, 'materials') !== null;
  const grossP = invalid ? null : penceOfInput(gross);
  const calculated =
    grossP === null
      ? null
      : calculateInvoice({
          grossP,
          materialsP: penceOfInput(materials) ?? 0,
          cisRate,
          vatRate,
          reverseCharge,
        });
  return (
    <Card
      size="small"
      title="What you will be paid"
      data-testid="portal-invoice-preview"
      style={{ marginBottom: 16 }}
    >
      {calculated === null || calculated.errors.length > 0 ? (
        // What is wrong with the amounts is said under their fields; here only what the preview waits for.
        <Typography.Text type="secondary" data-testid="portal-preview-empty">
          {calculated === null && !invalid
            ? 'Enter the gross amount to see the deduction and what you will be paid before you submit.'
            : 'The deduction and what you will be paid appear once the amounts are valid.'}
        </Typography.Text>
      ) : (
        <Descriptions column={1} size="small">
          <Descriptions.Item label="Gross">{pounds(calculated.grossP)}</Descriptions.Item>
          <Descriptions.Item label="Labour">{pounds(calculated.labourP)}</Descriptions.Item>
          <Descriptions.Item label={`CIS deduction (${cisRate}%)`}>
            <span data-testid="portal-preview-deduction">{pounds(calculated.cisDeductionP)}</span>
          </Descriptions.Item>
          <Descriptions.Item label="VAT">{pounds(calculated.vatAmountP)}</Descriptions.Item>
          <Descriptions.Item label="Net payment">
            <strong data-testid="portal-preview-net">{pounds(calculated.netPaymentP)}</strong>
          </Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}

/**
 * 'Submit an invoice': the subcontractor's invoice goes to POST /api/portal/cis/invoices and waits as Portal
 * Pending until the contractor approves or rejects it. Before it is sent, the cis domain's own rules flag every
 * field that is missing or wrong at once (number, date, gross, materials, justification); the server checks them
 * again and its field errors land under the same fields. The deduction and net are previewed as they type.
 */
export function SubmitInvoice({
  session,
  cisRate,
  onSubmitted,
}: {
  session: PortalSession;
  /** Their deduction rate (0, 20 or 30), as the contractor holds it. */
  cisRate: number;
  onSubmitted: () => Promise<void>;
}) {
  const [form] = Form.useForm<InvoiceFormValues>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<{ number: string; warnings: string[] } | null>(null);
  const gross = Form.useWatch('gross', form);
  const materials = Form.useWatch('materials', form);
  const vatRate = (Form.useWatch('vatRate', form) as number | undefined) ?? invoiceDefaults.vatRate;
  const reverseCharge = (Form.useWatch('reverseCharge', form) as boolean | undefined) ?? false;
  const grossP = penceOfInput(gross);
  const materialsP = penceOfInput(materials) ?? 0;
  const highMaterials =
    grossP !== null && materialsAtLeastPercent(grossP, materialsP, MATERIALS_WARNING_PERCENT);

  const submit = async () => {
    const values = { ...invoiceDefaults, ...form.getFieldsValue(true) } as InvoiceFormValues;
    setFailure(null);
    setSubmitted(null);
    const invoiceDate = values.invoiceDate ? values.invoiceDate.format('YYYY-MM-DD') : '';
    const errors = validateInvoiceForm({
      invoiceNumber: values.invoiceNumber.trim(),
      subcontractorId: session.subcontractorId,
      invoiceDate,
      gross: values.gross,
      materials: values.materials,
      vatRate: values.vatRate,
      materialsJustification: values.materialsJustification.trim(),
    });
    const named = Object.entries(errors).filter(([field]) => field in invoiceDefaults);
    if (named.length > 0) {
      form.setFields(
        named.map(([name, message]) => ({ name: name as keyof InvoiceFormValues, errors: [message] })),
      );
      setFailure(CORRECT_FIELDS);
      return;
    }
    const grossP = penceOfInput(values.gross) ?? 0;
    const materialsP = values.materials.trim() === '' ? 0 : (penceOfInput(values.materials) ?? 0);
    setBusy(true);
    try {
      const response = await portalFetch('/api/portal/cis/invoices', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        body: JSON.stringify({
          invoiceNumber: values.invoiceNumber.trim(),
          invoiceDate,
          description: values.description.trim(),
          grossP,
          materialsP,
          vatRate: values.vatRate,
          reverseCharge: values.reverseCharge,
          materialsJustification: materialsAtLeastPercent(grossP, materialsP, MATERIALS_WARNING_PERCENT)
            ? values.materialsJustification.trim()
            : '',
        }),
      });
      if (!response.ok) {
        const problem = await readProblem(response);
        const fields = new Map<keyof InvoiceFormValues, string>();
        for (const item of problem.errors ?? []) {
          const name = formFieldOf[item.field.replace(/^body\.?/, '')];
          if (name && !fields.has(name)) fields.set(name, item.message);
        }
        form.setFields([...fields].map(([name, message]) => ({ name, errors: [message] })));
        setFailure(fields.size > 0 ? CORRECT_FIELDS : (problem.detail ?? SOMETHING_WRONG));
        return;
      }
      const body = (await response.json()) as { invoice: { invoiceNumber: string }; warnings?: string[] };
      setSubmitted({ number: body.invoice.invoiceNumber, warnings: body.warnings ?? [] });
      form.resetFields();
      await onSubmitted();
    } catch {
      setFailure(SOMETHING_WRONG);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="Submit an invoice" data-testid="portal-invoice-form">
      <Form<InvoiceFormValues>
        form={form}
        layout="vertical"
        initialValues={invoiceDefaults}
        onFinish={() => void submit()}
        onValuesChange={(changed: Partial<InvoiceFormValues>) => {
          // A field's error clears as the subcontractor edits it.
          form.setFields(
            (Object.keys(changed) as (keyof InvoiceFormValues)[]).map((name) => ({ name, errors: [] })),
          );
          setFailure(null);
        }}
      >
        {submitted ? (
          <Alert
            type="success"
            showIcon
            style={{ marginBottom: 16 }}
            title={`Invoice ${submitted.number} submitted. ${session.tenant.name} will review it; it shows as Portal Pending until then.`}
            description={submitted.warnings.length > 0 ? submitted.warnings.join(' ') : undefined}
          />
        ) : null}
        {failure ? <Alert type="error" showIcon style={{ marginBottom: 16 }} title={failure} /> : null}
        <Row gutter={16}>
          <FieldCol cols={{ xs: 24, md: 8 }} label="Invoice number" name="invoiceNumber" required>
            <Input maxLength={50} />
          </FieldCol>
          <FieldCol cols={{ xs: 24, md: 8 }} label="Invoice date" name="invoiceDate" required>
            <DatePicker format={UK_DATE_FORMAT} placeholder={UK_DATE_FORMAT} style={{ width: '100%' }} />
          </FieldCol>
          <InvoiceAmountFields highMaterials={highMaterials} textMaxLength={2000} />
        </Row>
        <DeductionPreview
          gross={gross}
          materials={materials}
          vatRate={vatRate}
          reverseCharge={reverseCharge}
          cisRate={cisRate}
        />
        <Button type="primary" htmlType="submit" loading={busy}>
          Submit Invoice
        </Button>
      </Form>
    </Card>
  );
}
