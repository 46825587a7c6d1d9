import { Col, Form, type ColProps, type FormItemProps } from 'antd';

/** A form field in a column of the form's grid: the column's widths (`cols`), then the Form.Item's own props. */
export function FieldCol({ cols, children, ...item }: FormItemProps & { cols: ColProps }) {
  return (
    <Col {...cols}>
      <Form.Item {...item}>{children}</Form.Item>
    </Col>
  );
}
