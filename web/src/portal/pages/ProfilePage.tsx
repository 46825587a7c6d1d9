import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Form,
  Input,
  Row,
  Select,
  Spin,
  Switch,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import type { PortalProfile, PortalProfileInput } from '@workspace/cis/contract';
import { FieldCol } from '../../ui/FieldCol';
import { ukDate } from '../../ui/format';
import { readProblem } from '../../ui/problem';
import { PageTitle, usePortal } from '../PortalShell';
import { portalFetch, SOMETHING_WRONG } from '../session';
import { usePortalQuery } from '../usePortalQuery';

const STATUS_LABELS: Record<PortalProfile['verification']['status'], string> = {
  gross: 'Gross payment',
  standard: 'Standard rate',
  higher: 'Higher rate (not matched by HMRC)',
};

const TYPE_LABELS: Record<PortalProfile['type'], string> = {
  individual: 'Individual (sole trader)',
  company: 'Company',
  partnership: 'Partnership',
};

type ProfileForm = Required<
  Pick<PortalProfileInput, 'phone' | 'mobile' | 'tradingAddressSameAsRegistered'>
> & {
  registeredAddress: PortalProfile['registeredAddress'];
  tradingAddress: PortalProfile['tradingAddress'];
};

const formOf = (profile: PortalProfile): ProfileForm => ({
  phone: profile.phone,
  mobile: profile.mobile,
  registeredAddress: profile.registeredAddress,
  tradingAddress: profile.tradingAddress,
  tradingAddressSameAsRegistered: profile.tradingAddressSameAsRegistered,
});

/** The fields of one address, named under `prefix`. */
function AddressFields({
  prefix,
  required,
}: {
  prefix: 'registeredAddress' | 'tradingAddress';
  required: boolean;
}) {
  return (
    <Row gutter={16}>
      <FieldCol cols={{ xs: 24, md: 12 }} label="Address line 1" name={[prefix, 'line1']} required={required}>
        <Input maxLength={200} autoComplete="address-line1" />
      </FieldCol>
      <FieldCol cols={{ xs: 24, md: 12 }} label="Address line 2" name={[prefix, 'line2']}>
        <Input maxLength={200} autoComplete="address-line2" />
      </FieldCol>
      <FieldCol cols={{ xs: 24, md: 8 }} label="City" name={[prefix, 'city']} required={required}>
        <Input maxLength={100} autoComplete="address-level2" />
      </FieldCol>
      <FieldCol cols={{ xs: 24, md: 8 }} label="County" name={[prefix, 'county']}>
        <Input maxLength={100} />
      </FieldCol>
      <FieldCol cols={{ xs: 12, md: 4 }} label="Postcode" name={[prefix, 'postcode']} required={required}>
        <Input maxLength={20} autoComplete="postal-code" />
      </FieldCol>
      <FieldCol cols={{ xs: 12, md: 4 }} label="Country" name={[prefix, 'country']}>
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

/**
 * /portal/profile: their record as the contractor holds it (UTR and NINO masked, verification status and
 * deduction rate), and what they may change themselves: phone, mobile and addresses (the e-mail, where their
 * sign-in links go, and everything HMRC-related stay the contractor's to change; docs/portal.md).
 */
export function ProfilePage() {
  const { session, reload } = usePortal();
  const path = `/api/portal/cis/subcontractors/${session.subcontractorId}`;
  const { data, error, setData } = usePortalQuery<{ subcontractor: PortalProfile }>(path);
  const [form] = Form.useForm<ProfileForm>();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ type: 'success' | 'error'; text: string } | null>(null);
  const sameAsRegistered = Form.useWatch('tradingAddressSameAsRegistered', form) as boolean | undefined;
  const profile = data?.subcontractor;
  useEffect(() => {
    if (profile) form.setFieldsValue(formOf(profile));
  }, [profile, form]);

  const save = async (values: ProfileForm) => {
    setBusy(true);
    setOutcome(null);
    try {
      const response = await portalFetch(path, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        body: JSON.stringify(values),
      });
      if (!response.ok) {
        const problem = await readProblem(response);
        const fields = (problem.errors ?? []).map((item) => ({
          name: item.field.replace(/^body\.?/, '').split('.'),
          errors: [item.message],
        }));
        form.setFields(fields as never);
        setOutcome({
          type: 'error',
          text:
            fields.length > 0
              ? 'Please correct the highlighted fields.'
              : (problem.detail ?? SOMETHING_WRONG),
        });
        return;
      }
      setData((await response.json()) as { subcontractor: PortalProfile });
      setOutcome({ type: 'success', text: 'Your details have been saved.' });
      await reload();
    } catch {
      setOutcome({ type: 'error', text: SOMETHING_WRONG });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageTitle title="Profile">
        Your details as {session.tenant.name} holds them. Ask them to change your name, e-mail, UTR or NINO.
      </PageTitle>
      {error ? <Alert type="error" showIcon title={error} /> : null}
      {!profile && !error ? <Spin /> : null}
      {profile ? (
        <>
          <Card title="Tax details" data-testid="portal-tax-details">
            <Descriptions column={{ xs: 1, md: 2 }} size="small">
              <Descriptions.Item label="Name">{profile.name}</Descriptions.Item>
              <Descriptions.Item label="Type">{TYPE_LABELS[profile.type]}</Descriptions.Item>
              <Descriptions.Item label="UTR">
                <span data-testid="portal-utr">{profile.utrMasked || 'Not recorded'}</span>
              </Descriptions.Item>
              {profile.type === 'individual' ? (
                <Descriptions.Item label="NINO">
                  <span data-testid="portal-nino">{profile.ninoMasked || 'Not recorded'}</span>
                </Descriptions.Item>
              ) : null}
              {profile.companyNumber ? (
                <Descriptions.Item label="Company number">{profile.companyNumber}</Descriptions.Item>
              ) : null}
              {profile.vatNumber ? (
                <Descriptions.Item label="VAT number">{profile.vatNumber}</Descriptions.Item>
              ) : null}
              <Descriptions.Item label="Verification status">
                <span data-testid="portal-verification">{STATUS_LABELS[profile.verification.status]}</span>
              </Descriptions.Item>
              <Descriptions.Item label="Deduction rate">
                <span data-testid="portal-rate">{`${profile.verification.rate}%`}</span>
              </Descriptions.Item>
              {profile.verification.verifiedDate ? (
                <Descriptions.Item label="Verified">
                  {ukDate(profile.verification.verifiedDate)}
                </Descriptions.Item>
              ) : null}
              <Descriptions.Item label="E-mail">
                <span style={{ overflowWrap: 'anywhere' }}>{profile.email || 'Not recorded'}</span>
              </Descriptions.Item>
            </Descriptions>
          </Card>
          <Card title="Contact details and addresses" data-testid="portal-profile-form">
            <Form<ProfileForm>
              form={form}
              layout="vertical"
              initialValues={formOf(profile)}
              onFinish={(values) => void save(values)}
              onValuesChange={(changed: Partial<ProfileForm>) => {
                setOutcome(null);
                for (const key of Object.keys(changed) as (keyof ProfileForm)[]) {
                  const value = changed[key];
                  if (typeof value === 'object')
                    form.setFields(
                      Object.keys(value).map((part) => ({ name: [key, part] as never, errors: [] })),
                    );
                  else form.setFields([{ name: key, errors: [] }]);
                }
              }}
            >
              {outcome ? (
                <Alert type={outcome.type} showIcon style={{ marginBottom: 16 }} title={outcome.text} />
              ) : null}
              <Row gutter={16}>
                <FieldCol cols={{ xs: 24, md: 12 }} label="Phone" name="phone">
                  <Input inputMode="tel" maxLength={30} autoComplete="tel" />
                </FieldCol>
                <FieldCol cols={{ xs: 24, md: 12 }} label="Mobile" name="mobile">
                  <Input inputMode="tel" maxLength={30} autoComplete="tel" />
                </FieldCol>
              </Row>
              <Typography.Title level={5}>Registered address</Typography.Title>
              <AddressFields prefix="registeredAddress" required />
              <Form.Item
                label="Trading address same as registered"
                name="tradingAddressSameAsRegistered"
                valuePropName="checked"
              >
                <Switch />
              </Form.Item>
              {sameAsRegistered === false ? (
                <>
                  <Typography.Title level={5}>Trading address</Typography.Title>
                  <AddressFields prefix="tradingAddress" required={false} />
                </>
              ) : null}
              <Row>
                <Col>
                  <Button type="primary" htmlType="submit" loading={busy}>
                    Save details
                  </Button>
                </Col>
              </Row>
            </Form>
          </Card>
        </>
      ) : null}
    </>
  );
}
