import type {
  Address,
  Subcontractor,
  SubcontractorInput,
  SubcontractorType,
  VerificationMethod,
  VerificationStatus,
} from '@workspace/cis/contract';
import { Alert, Card, Form, Input, Row, Select, Skeleton, Space, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useToast } from '../../ui/feedback';
import { useCreateSubcontractorMutation, useSubcontractorQuery, useUpdateSubcontractorMutation } from './api';
import { DateField } from '../../ui/DateField';
import { CisQueryError } from './components/CisQueryError';
import { EditForm } from './components/EditForm';
import {
  ExistingSubcontractorAlert,
  existingRecordOf,
  type ExistingRecord,
} from './components/ExistingSubcontractor';
import { showFieldErrors } from './components/formErrors';
import { FormActions } from '../../ui/FormActions';
import { useCis } from './context';
import { verificationRate, type SubcontractorContactFields } from './domain';
import { errorMessage, fieldErrors } from '../../ui/problem';
import { validateSubcontractorInput } from './validation';
import { FieldCol } from '../../ui/FieldCol';

interface FormValues extends SubcontractorContactFields {
  type: SubcontractorType;
  name: string;
  utr: string;
  nino: string;
  verification: {
    status: VerificationStatus;
    rate: number;
    method: string;
    reference: string;
    notes: string;
    verifiedDate: string;
  };
}

/** The switches of the Consents and Access card, in order. */
const consentSwitches = [
  { label: 'GDPR consent', name: 'gdprConsent' },
  { label: 'Marketing consent', name: 'marketingConsent' },
  { label: 'Portal access', name: 'portalAccess' },
  { label: 'Active', name: 'active' },
] as const;

const emptyAddress: Address = { line1: '', line2: '', city: '', county: '', postcode: '', country: 'GB' };

const defaults: FormValues = {
  type: 'individual',
  name: '',
  utr: '',
  nino: '',
  companyNumber: '',
  vatNumber: '',
  email: '',
  phone: '',
  mobile: '',
  registeredAddress: emptyAddress,
  tradingAddress: emptyAddress,
  tradingAddressSameAsRegistered: true,
  gdprConsent: false,
  marketingConsent: false,
  portalAccess: false,
  active: true,
  verification: { status: 'standard', rate: 20, method: '', reference: '', notes: '', verifiedDate: '' },
};

function valuesOf(sub: Subcontractor): FormValues {
  return {
    type: sub.type,
    name: sub.name,
    utr: '',
    nino: '',
    companyNumber: sub.companyNumber,
    vatNumber: sub.vatNumber,
    email: sub.email,
    phone: sub.phone,
    mobile: sub.mobile,
    registeredAddress: { ...emptyAddress, ...sub.registeredAddress },
    tradingAddress: { ...emptyAddress, ...sub.tradingAddress },
    tradingAddressSameAsRegistered: sub.tradingAddressSameAsRegistered,
    gdprConsent: sub.gdprConsent,
    marketingConsent: sub.marketingConsent,
    portalAccess: sub.portalAccess,
    active: sub.active && !sub.archived,
    verification: {
      status: sub.verification.status,
      rate: sub.verification.rate,
      method: sub.verification.method,
      reference: sub.verification.reference,
      notes: sub.verification.notes,
      verifiedDate: sub.verification.verifiedDate ?? '',
    },
  };
}

const trimmed = (value: string | undefined): string | undefined => {
  const text = value?.trim();
  return text ? text : undefined;
};

function inputOf(values: FormValues): SubcontractorInput {
  const registered = { ...emptyAddress, ...values.registeredAddress };
  return {
    type: values.type,
    name: values.name.trim(),
    utr: trimmed(values.utr),
    nino: values.type === 'individual' ? trimmed(values.nino) : undefined,
    companyNumber: values.type === 'company' ? trimmed(values.companyNumber) : undefined,
    vatNumber: trimmed(values.vatNumber),
    email: trimmed(values.email),
    phone: trimmed(values.phone),
    mobile: trimmed(values.mobile),
    registeredAddress: registered,
    tradingAddress: values.tradingAddressSameAsRegistered
      ? registered
      : { ...emptyAddress, ...values.tradingAddress },
    tradingAddressSameAsRegistered: values.tradingAddressSameAsRegistered,
    gdprConsent: values.gdprConsent,
    marketingConsent: values.marketingConsent,
    portalAccess: values.portalAccess,
    active: values.active,
    verification: {
      status: values.verification.status,
      rate: verificationRate(values.verification.status),
      // The method select offers the schema's methods only.
      method: trimmed(values.verification.method) as VerificationMethod | undefined,
      reference: trimmed(values.verification.reference),
      notes: trimmed(values.verification.notes),
      verifiedDate: trimmed(values.verification.verifiedDate),
    },
  };
}

function AddressFields({ prefix }: { prefix: 'registeredAddress' | 'tradingAddress' }) {
  const label = prefix === 'registeredAddress' ? 'Registered' : 'Trading';
  return (
    <Row gutter={16}>
      <FieldCol cols={{ xs: 24, md: 12 }} label={`${label} address line 1`} name={[prefix, 'line1']}>
        <Input />
      </FieldCol>
      <FieldCol cols={{ xs: 24, md: 12 }} label={`${label} address line 2`} name={[prefix, 'line2']}>
        <Input />
      </FieldCol>
      <FieldCol cols={{ xs: 24, md: 8 }} label={`${label} city`} name={[prefix, 'city']}>
        <Input />
      </FieldCol>
      <FieldCol cols={{ xs: 24, md: 6 }} label={`${label} county`} name={[prefix, 'county']}>
        <Input />
      </FieldCol>
      <FieldCol cols={{ xs: 24, md: 5 }} label={`${label} postcode`} name={[prefix, 'postcode']}>
        <Input />
      </FieldCol>
      <FieldCol cols={{ xs: 24, md: 5 }} label={`${label} country`} name={[prefix, 'country']}>
        <Select
          options={[
            { value: 'GB', label: 'GB' },
            { value: 'NI', label: 'NI' },
          ]}
        />
      </FieldCol>
    </Row>
  );
}

/** /cis/subcontractors/new and /cis/subcontractors/:id/edit. Saves, then goes back to the list. */
export function SubcontractorForm() {
  const { id } = useParams();
  const editing = Boolean(id);
  const navigate = useNavigate();
  const toast = useToast();
  const { abilities } = useCis();
  const [form] = Form.useForm<FormValues>();
  const [banner, setBanner] = useState<string | null>(null);
  // The record a refused duplicate names, linked from the banner (one subcontractor per person, ADR 0039).
  const [duplicateOf, setDuplicateOf] = useState<ExistingRecord | undefined>(undefined);
  const existing = useSubcontractorQuery({ id: id ?? '' }, { skip: !editing });
  const [create, createState] = useCreateSubcontractorMutation();
  const [update, updateState] = useUpdateSubcontractorMutation();
  const type = Form.useWatch('type', form);
  const sameAddress = Form.useWatch('tradingAddressSameAsRegistered', form) as boolean | undefined;
  const verificationStatus = Form.useWatch(['verification', 'status'], form) as
    VerificationStatus | undefined;
  const loaded = existing.data?.subcontractor;

  useEffect(() => {
    if (loaded) form.setFieldsValue(valuesOf(loaded));
  }, [loaded, form]);

  useEffect(() => {
    if (verificationStatus)
      form.setFieldValue(['verification', 'rate'], verificationRate(verificationStatus));
  }, [verificationStatus, form]);

  if (editing && existing.isLoading) return <Skeleton active paragraph={{ rows: 10 }} />;
  if (editing && existing.error)
    return (
      <CisQueryError
        error={existing.error}
        prefix="Error loading subcontractor: "
        action="edit subcontractors"
      />
    );
  if (!abilities.canWriteSubcontractors)
    return <Alert type="warning" showIcon title="You don't have permission to add or edit subcontractors." />;

  const save = async (values: FormValues) => {
    setBanner(null);
    setDuplicateOf(undefined);
    const body = inputOf({ ...defaults, ...values });
    const clientErrors = validateSubcontractorInput(body, editing ? 'edit' : 'create');
    if (Object.keys(clientErrors).length > 0) {
      showFieldErrors(form, clientErrors);
      return;
    }
    try {
      if (id) await update({ id, body }).unwrap();
      else await create(body).unwrap();
      toast.success(editing ? 'Subcontractor updated' : 'Subcontractor created');
      void navigate('/cis/subcontractors');
    } catch (failure) {
      const errors = fieldErrors(failure);
      showFieldErrors(form, errors);
      setBanner(errorMessage(failure, 'Failed to save subcontractor'));
      setDuplicateOf(existingRecordOf(failure));
    }
  };

  return (
    <EditForm<FormValues>
      form={form}
      initialValues={defaults}
      onSave={save}
      onEdit={() => {
        setBanner(null);
        setDuplicateOf(undefined);
      }}
      testId="subcontractor-form"
      // The domain's messages, not the browser's own bubbles (type="email" would block the submit unseen).
      noValidate
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        {banner &&
          (duplicateOf ? (
            <ExistingSubcontractorAlert message={banner} existing={duplicateOf} />
          ) : (
            <Alert type="error" showIcon title={banner} data-testid="save-error" />
          ))}
        <Card title={editing ? `Edit ${loaded?.name ?? 'Subcontractor'}` : 'New Subcontractor'} size="small">
          <Row gutter={16}>
            <FieldCol cols={{ xs: 24, md: 6 }} label="Type" name="type">
              <Select
                options={[
                  { value: 'individual', label: 'Individual' },
                  { value: 'company', label: 'Company' },
                  { value: 'partnership', label: 'Partnership' },
                ]}
              />
            </FieldCol>
            <FieldCol cols={{ xs: 24, md: 18 }} label="Name" name="name" required>
              <Input maxLength={100} />
            </FieldCol>
            <FieldCol
              cols={{ xs: 24, md: 8 }}
              label="UTR"
              name="utr"
              required={!editing}
              extra={
                editing ? `Stored: ${loaded?.utrMasked ?? 'none'}. Leave blank to keep it.` : '10 digits'
              }
            >
              <Input maxLength={13} />
            </FieldCol>
            {type === 'individual' && (
              <FieldCol
                cols={{ xs: 24, md: 8 }}
                label="NINO"
                name="nino"
                extra={
                  editing && loaded?.ninoMasked
                    ? `Stored: ${loaded.ninoMasked}. Leave blank to keep it.`
                    : undefined
                }
              >
                <Input maxLength={13} />
              </FieldCol>
            )}
            {type === 'company' && (
              <FieldCol cols={{ xs: 24, md: 8 }} label="Company number" name="companyNumber" required>
                <Input maxLength={8} />
              </FieldCol>
            )}
            <FieldCol cols={{ xs: 24, md: 8 }} label="VAT number" name="vatNumber">
              <Input />
            </FieldCol>
            <FieldCol cols={{ xs: 24, md: 8 }} label="Email" name="email">
              <Input type="email" />
            </FieldCol>
            <FieldCol cols={{ xs: 24, md: 8 }} label="Phone" name="phone">
              <Input />
            </FieldCol>
            <FieldCol cols={{ xs: 24, md: 8 }} label="Mobile" name="mobile">
              <Input />
            </FieldCol>
          </Row>
        </Card>
        <Card title="Registered Address" size="small">
          <AddressFields prefix="registeredAddress" />
        </Card>
        <Card
          title="Trading Address"
          size="small"
          extra={
            <Space>
              <span>Trading address same as registered</span>
              <Form.Item name="tradingAddressSameAsRegistered" valuePropName="checked" noStyle>
                <Switch aria-label="Trading address same as registered" />
              </Form.Item>
            </Space>
          }
        >
          {sameAddress === false ? (
            <AddressFields prefix="tradingAddress" />
          ) : (
            <span>The trading address is the registered address.</span>
          )}
        </Card>
        <Card title="Consents and Access" size="small">
          <Row gutter={16}>
            {consentSwitches.map(({ label, name }) => (
              <FieldCol
                key={name}
                cols={{ xs: 12, md: 6 }}
                label={label}
                name={name}
                valuePropName="checked"
                // GDPR consent is required on create only (the domain's rule); the other switches never are.
                required={name === 'gdprConsent' && !editing}
              >
                <Switch />
              </FieldCol>
            ))}
          </Row>
        </Card>
        <Card title="Verification" size="small">
          <Row gutter={16}>
            <FieldCol cols={{ xs: 24, md: 6 }} label="Verification status" name={['verification', 'status']}>
              <Select
                options={[
                  { value: 'gross', label: 'Gross' },
                  { value: 'standard', label: 'Standard' },
                  { value: 'higher', label: 'Higher' },
                ]}
              />
            </FieldCol>
            <FieldCol cols={{ xs: 24, md: 4 }} label="CIS rate" name={['verification', 'rate']}>
              <Select
                disabled
                options={[
                  { value: 0, label: '0%' },
                  { value: 20, label: '20%' },
                  { value: 30, label: '30%' },
                ]}
              />
            </FieldCol>
            <FieldCol cols={{ xs: 24, md: 6 }} label="Verification method" name={['verification', 'method']}>
              <Select
                allowClear
                options={[
                  { value: 'online', label: 'Online' },
                  { value: 'phone', label: 'Phone' },
                  { value: 'letter', label: 'Letter' },
                  { value: 'auto', label: 'Auto' },
                ]}
              />
            </FieldCol>
            <FieldCol
              cols={{ xs: 24, md: 8 }}
              label="Verification reference"
              name={['verification', 'reference']}
            >
              <Input />
            </FieldCol>
            <FieldCol cols={{ xs: 24, md: 16 }} label="Verification notes" name={['verification', 'notes']}>
              <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} />
            </FieldCol>
            <FieldCol cols={{ xs: 24, md: 8 }} label="Verified date" name={['verification', 'verifiedDate']}>
              <DateField />
            </FieldCol>
          </Row>
        </Card>
        <FormActions
          saving={createState.isLoading || updateState.isLoading}
          submitLabel={editing ? 'Save Changes' : 'Create Subcontractor'}
          cancelTo="/cis/subcontractors"
        />
      </Space>
    </EditForm>
  );
}
