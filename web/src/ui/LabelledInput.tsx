import { Form, Input } from 'antd';

/** A controlled text input under a form label that names the input too (its aria-label). */
export function LabelledInput({
  label,
  value,
  onChange,
  required,
  type,
  maxLength,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
  type?: 'email';
  maxLength?: number;
}) {
  return (
    <Form.Item label={label} required={required}>
      <Input
        type={type}
        aria-label={label}
        maxLength={maxLength}
        value={value}
        onChange={(event) => {
          onChange(event.target.value);
        }}
      />
    </Form.Item>
  );
}
