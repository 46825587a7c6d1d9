import { Button, Space } from 'antd';
import { Link } from 'react-router';

/** A form's submit button and the Cancel link back to where the user came from. */
export function FormActions({
  saving,
  submitLabel,
  cancelTo,
}: {
  saving: boolean;
  submitLabel: string;
  cancelTo: string;
}) {
  return (
    <Space>
      <Button type="primary" htmlType="submit" loading={saving}>
        {submitLabel}
      </Button>
      <Link to={cancelTo}>
        <Button>Cancel</Button>
      </Link>
    </Space>
  );
}
