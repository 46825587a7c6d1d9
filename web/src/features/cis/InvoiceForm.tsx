import type { Invoice, InvoiceInput } from '@workspace/cis/contract';
import { Alert, Button, Card, Col, Descriptions, Form, Input, Row, Select, Skeleton, Space } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { penceOfInput } from '@workspace/rules';
import { useToast } from '../../ui/feedback';
import {
  useCreateInvoiceMutation,
  useInvoiceQuery,
  useSubcontractorsQuery,
  useUpdateInvoiceMutation,
} from './api';
import { DateField } from '../../ui/DateField';
import { InvoiceAmountFields } from './components/InvoiceAmountFields';
import { CisQueryError } from './components/CisQueryError';
import { EditForm } from './components/EditForm';
import { showFieldErrors } from './components/formErrors';
import { FormActions } from '../../ui/FormActions';
import { useCis } from './context';
import { calculateInvoice, normaliseInvoiceStatus, penceToPounds } from './domain';
import { pounds, todayIso } from '../../ui/format';
import { errorMessage, fieldErrors } from '../../ui/problem';
import { amountInputError, validateInvoiceForm } from './validation';
import { FieldCol } from '../../ui/FieldCol';

interface FormValues {
  invoiceNumber: string;
  subcontractorId: string | undefined;
  invoiceDate: string;
  receivedDate: string;
  description: string;
  gross: string;
  materials: string;
  vatRate: number;
  reverseCharge: boolean;
  materialsJustification: string;
}

const defaults: FormValues = {
  invoiceNumber: '',
  subcontractorId: undefined,
  invoiceDate: '',
  receivedDate: '',
  description: '',
  gross: '',
  materials: '0',
  vatRate: 20,
  reverseCharge: false,
  materialsJustification: '',
};

function valuesOf(invoice: Invoice): FormValues {
  return {
    invoiceNumber: invoice.invoiceNumber,
    subcontractorId: invoice.subcontractorId,
    invoiceDate: invoice.invoiceDate,
    receivedDate: invoice.receivedDate ?? '',
    description: invoice.description,
    gross: penceToPounds(invoice.amounts.grossP),
    materials: penceToPounds(invoice.amounts.materialsP),
    vatRate: invoice.vatRate,
    reverseCharge: invoice.reverseCharge,
    materialsJustification: invoice.materialsJustification,
  };
}

/** The server's field names to the form's. */
const serverFieldToForm: Record<string, string> = { grossP: 'gross', materialsP: 'materials' };

/** /cis/invoices/new and /cis/invoices/:id/edit (drafts only), with a live preview of the calculation. */
export function InvoiceForm() {
  const { id } = useParams();
  const editing = Boolean(id);
  const navigate = useNavigate();
  const toast = useToast();
  const { abilities } = useCis();
  const [form] = Form.useForm<FormValues>();
  const [banner, setBanner] = useState<string | null>(null);
  const existing = useInvoiceQuery(id ?? '', { skip: !editing });
  const subs = useSubcontractorsQuery({ search: '', status: 'active', type: 'all' });
  const [create, createState] = useCreateInvoiceMutation();
  const [update, updateState] = useUpdateInvoiceMutation();
  const watched = Form.useWatch([], form) as Partial<FormValues> | undefined;
  const loaded = existing.data?.invoice;

  useEffect(() => {
    if (loaded) form.setFieldsValue(valuesOf(loaded));
  }, [loaded, form]);

  const subcontractor = subs.data?.items.find((item) => item.id === watched?.subcontractorId);
  const cisRate = subcontractor?.verification.rate ?? loaded?.cisRate ?? 20;
  // The preview shows totals only for amounts that are amounts: 'abc', '1000.005' or a negative figure give none.
  const amountsInvalid =
    amountInputError(watched?.gross, 'gross') !== null ||
    amountInputError(watched?.materials, 'materials') !== null;
  const grossP = amountsInvalid ? null : penceOfInput(watched?.gross);
  const materialsP = penceOfInput(watched?.materials) ?? 0;
  const calculated = useMemo(
    () =>
      grossP === null
        ? null
        : calculateInvoice({
            grossP,
            materialsP,
            cisRate,
            vatRate: watched?.vatRate ?? 20,
            reverseCharge: watched?.reverseCharge ?? false,
          }),
    [grossP, materialsP, cisRate, watched?.vatRate, watched?.reverseCharge],
  );
  // Materials above gross (or any other calculation error): its message, no totals.
  const preview = calculated && calculated.errors.length === 0 ? calculated : null;
  const subcontractorOptions = useMemo(() => {
    const options = (subs.data?.items ?? []).map((item) => ({
      value: item.id,
      label: `${item.name} (${item.verification.rate}%)`,
    }));
    if (loaded && !options.some((option) => option.value === loaded.subcontractorId))
      options.push({ value: loaded.subcontractorId, label: loaded.subcontractorName });
    return options;
  }, [subs.data, loaded]);

  if (!abilities.canWrite)
    return <Alert type="warning" showIcon title="You don't have permission to create or edit invoices." />;
  if (editing && existing.isLoading) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (editing && (existing.error || !loaded))
    return <CisQueryError error={existing.error} prefix="Error loading invoice: " action="edit invoices" />;
  if (loaded && normaliseInvoiceStatus(loaded.status) !== 'draft')
    return (
      <Alert
        type="warning"
        showIcon
        title="Only draft invoices can be edited"
        action={
          <Link to={`/cis/invoices/${loaded.id}`}>
            <Button>View invoice</Button>
          </Link>
        }
      />
    );

  const save = async (raw: FormValues) => {
    const values = { ...defaults, ...raw };
    setBanner(null);
    const clientErrors = validateInvoiceForm({
      invoiceNumber: values.invoiceNumber,
      subcontractorId: values.subcontractorId ?? '',
      invoiceDate: values.invoiceDate,
      gross: values.gross,
      materials: values.materials,
      vatRate: values.vatRate,
      materialsJustification: values.materialsJustification,
    });
    if (Object.keys(clientErrors).length > 0) {
      showFieldErrors(form, clientErrors);
      return;
    }
    const body: InvoiceInput = {
      invoiceNumber: values.invoiceNumber.trim(),
      subcontractorId: values.subcontractorId ?? '',
      invoiceDate: values.invoiceDate,
      ...(values.receivedDate ? { receivedDate: values.receivedDate } : {}),
      ...(values.description.trim() ? { description: values.description.trim() } : {}),
      grossP: penceOfInput(values.gross) ?? 0,
      materialsP: penceOfInput(values.materials) ?? 0,
      vatRate: values.vatRate,
      reverseCharge: values.reverseCharge,
      ...(values.materialsJustification.trim()
        ? { materialsJustification: values.materialsJustification.trim() }
        : {}),
    };
    try {
      const saved = id ? await update({ id, body }).unwrap() : await create(body).unwrap();
      for (const warning of saved.warnings) toast.warning(warning);
      toast.success(editing ? 'Invoice updated' : 'Invoice created');
      void navigate(`/cis/invoices/${saved.invoice.id}`);
    } catch (failure) {
      const errors = Object.fromEntries(
        Object.entries(fieldErrors(failure)).map(([field, message]) => [
          serverFieldToForm[field] ?? field,
          message,
        ]),
      );
      showFieldErrors(form, errors);
      setBanner(errorMessage(failure, 'Failed to save invoice'));
    }
  };

  const highMaterials = preview !== null && preview.materialsPercentage >= 60;

  return (
    <EditForm<FormValues>
      form={form}
      // A new invoice is dated today unless the user changes it.
      initialValues={editing ? defaults : { ...defaults, invoiceDate: todayIso() }}
      onSave={save}
      onEdit={() => {
        setBanner(null);
      }}
      testId="invoice-form"
    >
      <Row gutter={16}>
        <Col xs={24} lg={15}>
          <Card title={editing ? `Edit Invoice ${loaded?.invoiceNumber ?? ''}` : 'New Invoice'} size="small">
            {banner && (
              <Alert
                type="error"
                showIcon
                title={banner}
                style={{ marginBottom: 16 }}
                data-testid="save-error"
              />
            )}
            <Row gutter={16}>
              <FieldCol cols={{ xs: 24, md: 10 }} label="Invoice number" name="invoiceNumber" required>
                <Input maxLength={50} />
              </FieldCol>
              <FieldCol cols={{ xs: 24, md: 14 }} label="Subcontractor" name="subcontractorId" required>
                <Select
                  showSearch={{ optionFilterProp: 'label' }}
                  loading={subs.isLoading}
                  placeholder="Select a subcontractor"
                  options={subcontractorOptions}
                />
              </FieldCol>
              <FieldCol cols={{ xs: 24, md: 8 }} label="Invoice date" name="invoiceDate" required>
                <DateField />
              </FieldCol>
              <FieldCol cols={{ xs: 24, md: 8 }} label="Received date" name="receivedDate">
                <DateField />
              </FieldCol>
              <InvoiceAmountFields highMaterials={highMaterials} />
            </Row>
            <FormActions
              saving={createState.isLoading || updateState.isLoading}
              submitLabel={editing ? 'Save Changes' : 'Create Invoice'}
              cancelTo={loaded ? `/cis/invoices/${loaded.id}` : '/cis/invoices'}
            />
          </Card>
        </Col>
        <Col xs={24} lg={9}>
          <Card title="Calculation Preview" size="small" data-testid="invoice-preview">
            {preview === null ? (
              <Space orientation="vertical" style={{ width: '100%' }} data-testid="preview-empty">
                {calculated?.errors.map((message) => (
                  <Alert key={message} type="error" showIcon title={message} />
                ))}
                <Alert
                  type="info"
                  showIcon
                  title={
                    amountsInvalid || calculated
                      ? 'The calculation appears once the amounts are valid.'
                      : 'Enter the gross amount to see the calculation.'
                  }
                />
              </Space>
            ) : (
              <Space orientation="vertical" style={{ width: '100%' }}>
                {preview.warnings.map((message) => (
                  <Alert key={message} type="warning" showIcon title={message} />
                ))}
                <Descriptions column={1} size="small" bordered>
                  <Descriptions.Item label="Gross">{pounds(preview.grossP)}</Descriptions.Item>
                  <Descriptions.Item label="Materials">
                    {`${pounds(preview.materialsP)} (${preview.materialsPercentage}%)`}
                  </Descriptions.Item>
                  <Descriptions.Item label="Labour">{pounds(preview.labourP)}</Descriptions.Item>
                  <Descriptions.Item label={`CIS deduction (${cisRate}%)`}>
                    {pounds(preview.cisDeductionP)}
                  </Descriptions.Item>
                  <Descriptions.Item label="VAT">{pounds(preview.vatAmountP)}</Descriptions.Item>
                  {preview.reverseChargeVatP > 0 && (
                    <Descriptions.Item label="Reverse charge VAT (self-accounted)">
                      {pounds(preview.reverseChargeVatP)}
                    </Descriptions.Item>
                  )}
                  <Descriptions.Item label="Invoice total">{pounds(preview.grossTotalP)}</Descriptions.Item>
                  <Descriptions.Item label="Net payment">
                    <strong data-testid="preview-net">{pounds(preview.netPaymentP)}</strong>
                  </Descriptions.Item>
                </Descriptions>
              </Space>
            )}
          </Card>
        </Col>
      </Row>
    </EditForm>
  );
}
