import {
  Alert,
  Button,
  Card,
  ConfigProvider,
  DatePicker,
  Form,
  Grid,
  Input,
  Layout,
  Result,
  Row,
  Spin,
  Table,
  Tag,
  Typography,
} from 'antd';
import enGB from 'antd/locale/en_GB';
import type { Dayjs } from 'dayjs';
import { StrictMode, useCallback, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { PortalRecords } from '@workspace/cis/contract';
import { penceOfInput, taxMonthTitle } from '@workspace/rules';
// The CIS domain rules the staff app uses (pure, no I/O): the same thresholds and messages as the server.
import { INVOICE_MESSAGES, MATERIALS_WARNING_PERCENT, materialsAtLeastPercent } from '../features/cis/domain';
import { InvoiceAmountFields } from '../features/cis/components/InvoiceAmountFields';
import { tagColour } from '../features/cis/components/statusColour';
// The date field's module registers dayjs's parsing of typed DD/MM/YYYY dates.
import { UK_DATE_FORMAT } from '../ui/DateField';
import { pounds, ukDate } from '../ui/format';
import { problemDetail, readProblem } from '../ui/problem';
import { FieldCol } from '../ui/FieldCol';

interface PortalSession {
  subcontractorId: string;
  tenant: { id: string; name: string };
  /** Sent back as x-csrf-token on every state-changing call (logout included). */
  csrfToken: string;
}

type PortalInvoice = PortalRecords['invoices'][number];

/**
 * The Paid column: the payment date of a paid invoice only. A cancelled or rejected invoice was never paid as far as
 * the subcontractor is concerned, whatever dates it kept (issue 13).
 */
function paidText(invoice: PortalInvoice): string {
  if (invoice.status === 'paid' && invoice.paymentDate) return ukDate(invoice.paymentDate);
  if (invoice.status === 'cancelled' || invoice.status === 'rejected') return '-';
  return 'Not paid';
}

/** The invoice's status, and for a rejected one the contractor's reason beneath it. */
function InvoiceStatus({ invoice }: { invoice: PortalInvoice }) {
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

const SOMETHING_WRONG = 'Something went wrong. Please try again.';

/** /portal-login?tid=&token=: redeems the magic link once, then opens the portal. */
/** Fired when a portal call answers 401: the session ended (signed out elsewhere, expired or revoked). */
const SESSION_ENDED_EVENT = 'workspace:portal-session-ended';

/** A call of the portal's API; a 401 switches the page to 'Your portal session has ended'. */
async function portalFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(path, { credentials: 'same-origin', ...init });
  if (response.status === 401) window.dispatchEvent(new Event(SESSION_ENDED_EVENT));
  return response;
}

function PortalLogin() {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const tenantId = params.get('tid');
    const token = params.get('token');
    if (!tenantId || !token) {
      setError('This link is not valid.');
      return;
    }
    // The token leaves the address bar before anything else can read it.
    window.history.replaceState(null, '', '/portal-login');
    void fetch('/api/portal/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenantId, token }),
      credentials: 'same-origin',
    }).then(async (response) => {
      if (response.ok) window.location.replace('/portal/dashboard');
      else setError(await problemDetail(response, SOMETHING_WRONG));
    });
  }, []);
  if (error) return <Result status="warning" title="We could not sign you in" subTitle={error} />;
  return (
    <div style={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }}>
      <Spin size="large" />
    </div>
  );
}

function Portal() {
  const [session, setSession] = useState<PortalSession | null | undefined>(undefined);
  useEffect(() => {
    void fetch('/api/portal/session', { credentials: 'same-origin' }).then(async (response) => {
      setSession(response.ok ? ((await response.json()) as PortalSession) : null);
    });
    const ended = () => {
      setSession(null);
    };
    window.addEventListener(SESSION_ENDED_EVENT, ended);
    return () => {
      window.removeEventListener(SESSION_ENDED_EVENT, ended);
    };
  }, []);
  if (session === undefined) return <Spin />;
  if (session === null) {
    return (
      <Result
        status="info"
        title="Your portal session has ended"
        subTitle="Ask your contractor for a new sign-in link."
      />
    );
  }
  return <PortalHome session={session} />;
}

function PortalHome({ session }: { session: PortalSession }) {
  const [records, setRecords] = useState<PortalRecords | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    const response = await portalFetch('/api/portal/cis/me');
    if (response.ok) {
      setRecords((await response.json()) as PortalRecords);
      setError(null);
    } else setError(await problemDetail(response, SOMETHING_WRONG));
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  const logout = async () => {
    await fetch('/api/portal/logout', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'x-csrf-token': session.csrfToken },
    });
    window.location.replace('/portal-login');
  };
  return (
    <Layout style={{ minHeight: '100vh' }}>
      {/* On a phone the names wrap or shorten rather than push Log out off the screen. */}
      <Layout.Header
        data-testid="portal-header"
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: '4px 16px',
          height: 'auto',
          minHeight: 64,
          lineHeight: 1.4,
          padding: '12px clamp(12px, 4vw, 48px)',
        }}
      >
        <Typography.Text strong ellipsis style={{ color: '#fff', minWidth: 0, flex: '1 1 8em' }}>
          {session.tenant.name}
        </Typography.Text>
        <span style={{ display: 'flex', alignItems: 'center', gap: 12, minWidth: 0, maxWidth: '100%' }}>
          <Typography.Text ellipsis style={{ color: '#fff', minWidth: 0 }} data-testid="portal-subcontractor">
            {records?.subcontractor.name ?? ''}
          </Typography.Text>
          <Button onClick={() => void logout()}>Log out</Button>
        </span>
      </Layout.Header>
      <Layout.Content
        style={{
          padding: 'clamp(12px, 4vw, 24px)',
          display: 'grid',
          gap: 16,
          gridTemplateColumns: 'minmax(0, 1fr)',
        }}
      >
        <Typography.Title level={2}>Subcontractor portal</Typography.Title>
        {error ? <Alert type="error" showIcon title={error} /> : null}
        {!records && !error ? <Spin /> : null}
        {records ? (
          <>
            <Typography.Paragraph>
              Your invoices and payment and deduction statements from {session.tenant.name}. Tax is deducted
              at {records.subcontractor.verification.rate}% (UTR{' '}
              {records.subcontractor.utrMasked || 'not recorded'}).
            </Typography.Paragraph>
            <Card title="Payment and deduction statements">
              <PortalStatements statements={records.statements} />
            </Card>
            <SubmitInvoice session={session} onSubmitted={load} />
            <Card title="Invoices">
              <PortalInvoices invoices={records.invoices} />
            </Card>
          </>
        ) : null}
      </Layout.Content>
    </Layout>
  );
}

/** A statement's PDF, the subcontractor's own copy. */
function StatementPdfLink({ id }: { id: string }) {
  return (
    <a href={`/api/portal/cis/statements/${id}/pdf`} target="_blank" rel="noreferrer">
      Download PDF
    </a>
  );
}

/** The issued statements: a table on a wide screen, one block per statement on a phone. */
function PortalStatements({ statements }: { statements: PortalRecords['statements'] }) {
  const screens = Grid.useBreakpoint();
  if (screens.md === false) {
    if (statements.length === 0)
      return <Typography.Text type="secondary">No statements issued yet</Typography.Text>;
    return (
      <div style={{ display: 'grid' }}>
        {statements.map((statement) => (
          <div
            key={statement.id}
            data-testid="portal-statement"
            style={{ display: 'grid', gap: 4, padding: '12px 0', borderBottom: '1px solid #f0f0f0' }}
          >
            <Typography.Text strong>{taxMonthTitle(statement.taxMonth)}</Typography.Text>
            <Typography.Text>
              {`Gross ${pounds(statement.totals.grossP)} · Materials ${pounds(statement.totals.materialsP)} · CIS deducted ${pounds(statement.totals.cisDeductionP)}`}
            </Typography.Text>
            <Typography.Text type="secondary">
              {`${statement.invoiceCount} ${statement.invoiceCount === 1 ? 'invoice' : 'invoices'} · Issued ${ukDate(statement.issuedAt)}`}
            </Typography.Text>
            <StatementPdfLink id={statement.id} />
          </div>
        ))}
      </div>
    );
  }
  return (
    <Table
      rowKey="id"
      pagination={false}
      scroll={{ x: 'max-content' }}
      dataSource={statements}
      locale={{ emptyText: 'No statements issued yet' }}
      columns={[
        {
          title: 'Period',
          dataIndex: 'taxMonth',
          render: (label: string) => taxMonthTitle(label),
        },
        { title: 'Invoices', dataIndex: 'invoiceCount' },
        { title: 'Gross', render: (_, row) => pounds(row.totals.grossP) },
        { title: 'Materials', render: (_, row) => pounds(row.totals.materialsP) },
        { title: 'CIS deducted', render: (_, row) => pounds(row.totals.cisDeductionP) },
        { title: 'Issued', render: (_, row) => ukDate(row.issuedAt) },
        { title: '', render: (_, row) => <StatementPdfLink id={row.id} /> },
      ]}
    />
  );
}

/**
 * The subcontractor's invoices: a table on a wide screen; on a phone one block per invoice, so its status and a
 * rejection's reason are read without scrolling sideways.
 */
function PortalInvoices({ invoices }: { invoices: PortalInvoice[] }) {
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

/**
 * 'Submit an invoice': the subcontractor's invoice goes to POST /api/portal/cis/invoices and waits as Portal
 * Pending until the contractor approves or rejects it. The server checks every rule; its field errors land under
 * the fields.
 */
function SubmitInvoice({
  session,
  onSubmitted,
}: {
  session: PortalSession;
  onSubmitted: () => Promise<void>;
}) {
  const [form] = Form.useForm<InvoiceFormValues>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<{ number: string; warnings: string[] } | null>(null);
  const gross = Form.useWatch('gross', form);
  const materials = Form.useWatch('materials', form);
  const grossP = penceOfInput(gross);
  const materialsP = penceOfInput(materials) ?? 0;
  const highMaterials =
    grossP !== null && materialsAtLeastPercent(grossP, materialsP, MATERIALS_WARNING_PERCENT);

  const submit = async (raw: InvoiceFormValues) => {
    const values = { ...invoiceDefaults, ...raw };
    setFailure(null);
    setSubmitted(null);
    const amountErrors: { name: keyof InvoiceFormValues; errors: string[] }[] = [];
    const gross = penceOfInput(values.gross);
    const materials = values.materials.trim() === '' ? 0 : penceOfInput(values.materials);
    if (gross === null) amountErrors.push({ name: 'gross', errors: [INVOICE_MESSAGES.invalidGross] });
    if (materials === null)
      amountErrors.push({ name: 'materials', errors: [INVOICE_MESSAGES.invalidMaterials] });
    if (gross === null || materials === null) {
      form.setFields(amountErrors);
      return;
    }
    setBusy(true);
    try {
      const response = await portalFetch('/api/portal/cis/invoices', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        body: JSON.stringify({
          invoiceNumber: values.invoiceNumber.trim(),
          invoiceDate: values.invoiceDate ? values.invoiceDate.format('YYYY-MM-DD') : '',
          description: values.description.trim(),
          grossP: gross,
          materialsP: materials,
          vatRate: values.vatRate,
          reverseCharge: values.reverseCharge,
          materialsJustification: materialsAtLeastPercent(gross, materials, MATERIALS_WARNING_PERCENT)
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
        setFailure(
          fields.size > 0 ? 'Please correct the highlighted fields.' : (problem.detail ?? SOMETHING_WRONG),
        );
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
        onFinish={(values) => void submit(values)}
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
        <Button type="primary" htmlType="submit" loading={busy}>
          Submit Invoice
        </Button>
      </Form>
    </Card>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ConfigProvider locale={enGB}>
        {window.location.pathname.startsWith('/portal-login') ? <PortalLogin /> : <Portal />}
      </ConfigProvider>
    </StrictMode>,
  );
}
