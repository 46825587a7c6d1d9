import { Col, Form, Input, Select, Switch } from 'antd';

/**
 * An invoice's VAT rate, amounts, reverse charge, description and (when materials are high) the justification: the
 * same fields in the staff app's invoice form and the portal's. Columns of a form's `<Row gutter={16}>`.
 */
export function InvoiceAmountFields({
  highMaterials,
  textMaxLength,
}: {
  highMaterials: boolean;
  /** The longest description and justification the form accepts (none: the server's limit alone). */
  textMaxLength?: number;
}) {
  return (
    <>
      <Col xs={24} md={8}>
        <Form.Item label="VAT rate" name="vatRate">
          <Select
            options={[
              { value: 0, label: '0%' },
              { value: 5, label: '5%' },
              { value: 20, label: '20%' },
            ]}
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item label="Gross amount (£)" name="gross" required extra="Excluding VAT">
          <Input inputMode="decimal" prefix="£" />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item label="Materials (£)" name="materials">
          <Input inputMode="decimal" prefix="£" />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item label="Reverse charge" name="reverseCharge" valuePropName="checked">
          <Switch />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item label="Description" name="description">
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={textMaxLength} />
        </Form.Item>
      </Col>
      {highMaterials && (
        <Col span={24}>
          <Form.Item
            label="Materials justification"
            name="materialsJustification"
            required
            extra="Materials justification required when materials exceed 60%"
          >
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={textMaxLength} />
          </Form.Item>
        </Col>
      )}
    </>
  );
}
