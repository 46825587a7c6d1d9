import type { CisSettings as Settings, SettingsInput, SettingsResponse } from '@workspace/cis/contract';
import { LockOutlined, SaveOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Result,
  Row,
  Select,
  Skeleton,
  Space,
  Switch,
} from 'antd';
import { useEffect } from 'react';
import { useCisRolePermissionsQuery, useCisSettingsQuery, useSaveCisSettingsMutation } from './api';
import { clearEditedErrors, showFieldErrors } from './components/formErrors';
import { CisQueryError } from './components/CisQueryError';
import { RolePermissions } from './components/RolePermissions';
import { useCis } from './context';
import { DEFAULT_CIS_SETTINGS } from './domain';
import { errorMessage, errorStatus, fieldErrors } from '../../ui/problem';
import { validateSettingsInput } from './validation';
import { FieldCol } from '../../ui/FieldCol';

/** What the form shows when the settings cannot be loaded: the same defaults, in memory (cis.md §4 'Settings'). */
const fallbackSettings: SettingsResponse = {
  settings: { ...DEFAULT_CIS_SETTINGS, utrMasked: '', hasUtr: false, createdAt: '', updatedAt: '' },
  readiness: [],
};

type FormValues = Omit<SettingsInput, 'utr'> & { utr: string };

function valuesOf(settings: Settings): FormValues {
  return {
    active: settings.active,
    companyName: settings.companyName,
    employerRef: settings.employerRef,
    accountsOfficeRef: settings.accountsOfficeRef,
    utr: '',
    vatScheme: settings.vatScheme,
    emailStatements: settings.emailStatements,
    warningDays: settings.warningDays,
    statementDeadlineDays: settings.statementDeadlineDays,
    emailFrom: settings.emailFrom,
    emailReplyTo: settings.emailReplyTo,
    statementFooter: settings.statementFooter,
  };
}

/** /cis/settings: tax-authority details, processing settings and role permissions (managers only). */
export function CisSettings() {
  const { abilities } = useCis();
  const { notification } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const loaded = useCisSettingsQuery(undefined, { skip: !abilities.canManage });
  // The Role Permissions panel's data, asked for beside the settings (not after them, when the panel mounts).
  useCisRolePermissionsQuery(undefined, { skip: !abilities.canManage });
  const [save, saveState] = useSaveCisSettingsMutation();
  const { error, isLoading } = loaded;
  // A failed load (other than a refusal) falls back to the defaults in memory; saving them stores them.
  const loadFailed = Boolean(error) && errorStatus(error) !== 403;
  const data = loaded.data ?? (loadFailed ? fallbackSettings : undefined);
  const settings = data?.settings;

  useEffect(() => {
    if (settings) form.setFieldsValue(valuesOf(settings));
  }, [settings, form]);

  if (!abilities.canManage)
    return (
      <Result
        status="403"
        icon={<LockOutlined style={{ fontSize: 48 }} />}
        title="CIS Settings"
        subTitle="You don't have permission to manage CIS settings."
      />
    );
  if (isLoading) return <Skeleton active paragraph={{ rows: 10 }} />;
  if (!data)
    return <CisQueryError error={error} prefix="Error loading settings: " action="manage CIS settings" />;

  const submit = async (values: FormValues) => {
    const body: SettingsInput = { ...values, utr: values.utr.trim() || undefined };
    const clientErrors = validateSettingsInput(body);
    if (Object.keys(clientErrors).length > 0) {
      showFieldErrors(form, clientErrors);
      return;
    }
    try {
      await save(body).unwrap();
      form.setFieldValue('utr', '');
      notification.success({
        title: 'Settings Saved',
        description: 'Your CIS settings have been saved successfully.',
      });
    } catch (failure) {
      showFieldErrors(form, fieldErrors(failure));
      notification.error({ title: 'Save Failed', description: 'Failed to save settings' });
    }
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      {loadFailed && (
        <Alert
          type="warning"
          showIcon
          data-testid="settings-defaults"
          title="Settings could not be loaded; showing the defaults"
          description={errorMessage(error)}
        />
      )}
      {data.readiness.length > 0 && (
        <Alert
          type="info"
          showIcon
          title="Before a return can be filed"
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {data.readiness.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          }
        />
      )}
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={valuesOf(data.settings)}
        onFinish={(values) => void submit(values)}
        onValuesChange={(changed) => {
          clearEditedErrors(form, changed);
        }}
        data-testid="cis-settings-form"
        // The domain's messages, not the browser's own bubbles (type="email" would block the submit unseen).
        noValidate
      >
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Card title="Tax Authority Details" size="small">
            <Row gutter={16}>
              <FieldCol cols={{ xs: 24, md: 12 }} label="Company name" name="companyName" required>
                <Input maxLength={100} />
              </FieldCol>
              <FieldCol
                cols={{ xs: 24, md: 12 }}
                label="Employer reference"
                name="employerRef"
                extra="e.g., 123/AB12345"
              >
                <Input />
              </FieldCol>
              <FieldCol
                cols={{ xs: 24, md: 12 }}
                label="Accounts office reference"
                name="accountsOfficeRef"
                extra="e.g., 123PA00012345"
              >
                <Input />
              </FieldCol>
              <FieldCol
                cols={{ xs: 24, md: 12 }}
                label="Contractor UTR"
                name="utr"
                extra={
                  settings?.hasUtr ? `Stored: ${settings.utrMasked}. Leave blank to keep it.` : '10 digits'
                }
              >
                <Input maxLength={13} autoComplete="off" />
              </FieldCol>
            </Row>
          </Card>
          <Card title="Processing Settings" size="small">
            <Row gutter={16}>
              <FieldCol cols={{ xs: 24, md: 8 }} label="VAT scheme" name="vatScheme">
                <Select
                  options={[
                    { value: 'standard', label: 'Standard' },
                    { value: 'reduced', label: 'Reduced' },
                    { value: 'zero', label: 'Zero' },
                    { value: 'flat', label: 'Flat rate' },
                  ]}
                />
              </FieldCol>
              <Col xs={12} md={8}>
                {/* No min and max: the input would clamp 31 to 30 unseen; the form's check says why instead. */}
                <Form.Item label="Warning days" name="warningDays">
                  <InputNumber precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <FieldCol cols={{ xs: 12, md: 8 }} label="Statement deadline days" name="statementDeadlineDays">
                <InputNumber precision={0} style={{ width: '100%' }} />
              </FieldCol>
              <FieldCol
                cols={{ xs: 12, md: 8 }}
                label="Email statements"
                name="emailStatements"
                valuePropName="checked"
              >
                <Switch />
              </FieldCol>
              <FieldCol cols={{ xs: 12, md: 8 }} label="Module active" name="active" valuePropName="checked">
                <Switch />
              </FieldCol>
              <FieldCol cols={{ xs: 24, md: 12 }} label="Statement email from" name="emailFrom">
                <Input type="email" />
              </FieldCol>
              <FieldCol cols={{ xs: 24, md: 12 }} label="Statement email reply-to" name="emailReplyTo">
                <Input type="email" />
              </FieldCol>
              <FieldCol cols={{ span: 24 }} label="Statement footer" name="statementFooter">
                <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
              </FieldCol>
            </Row>
          </Card>
          <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saveState.isLoading}>
            Save Settings
          </Button>
        </Space>
      </Form>
      <Card title="Role Permissions" size="small">
        <RolePermissions />
      </Card>
    </Space>
  );
}
