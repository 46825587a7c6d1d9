import { Input, Select, Switch } from 'antd';
import { FieldCol } from '../../../ui/FieldCol';
import { notAnAmountError } from '../validation';

/**
 * A form rule showing, as the user types, what is wrong with an amount that is not one ('abc', '1000.005'). A
 * negative amount is left to the save, which puts the spec's messages on both amounts ('Amounts cannot be negative').
 */
const amountRule = (field: 'gross' | 'materials') => ({
  validator: (_: unknown, value: string | undefined) => {
    const message = notAnAmountError(value, field);
    return message ? Promise.reject(new Error(message)) : Promise.resolve();
  },
});

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
      <FieldCol cols={{ xs: 24, md: 8 }} label="VAT rate" name="vatRate">
        <Select
          options={[
            { value: 0, label: '0%' },
            { value: 5, label: '5%' },
            { value: 20, label: '20%' },
          ]}
        />
      </FieldCol>
      <FieldCol
        cols={{ xs: 24, md: 8 }}
        label="Gross amount (£)"
        name="gross"
        required
        extra="Excluding VAT"
        rules={[amountRule('gross')]}
      >
        <Input inputMode="decimal" prefix="£" />
      </FieldCol>
      <FieldCol
        cols={{ xs: 24, md: 8 }}
        label="Materials (£)"
        name="materials"
        rules={[amountRule('materials')]}
      >
        <Input inputMode="decimal" prefix="£" />
      </FieldCol>
      <FieldCol cols={{ xs: 24, md: 8 }} label="Reverse charge" name="reverseCharge" valuePropName="checked">
        <Switch />
      </FieldCol>
      <FieldCol cols={{ span: 24 }} label="Description" name="description">
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={textMaxLength} />
      </FieldCol>
      {highMaterials && (
        <FieldCol
          cols={{ span: 24 }}
          label="Materials justification"
          name="materialsJustification"
          required
          extra="Materials justification required when materials exceed 60%"
        >
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={textMaxLength} />
        </FieldCol>
      )}
    </>
  );
}
