import { Form, Modal, Select, Typography } from 'antd';
import { useSessionQuery } from '../../../app/api';
import { useToast } from '../../../ui/feedback';
import { errorMessage } from '../../../ui/problem';
import { useColleaguesQuery } from '../shares/api';
import { shareCandidates } from '../shares/colleagues';
import { useRequestSignatureMutation } from './api';

/** Request a signature on a PDF from a colleague (one pending request per file and person). */
export function RequestSignatureDialog({
  file,
  open,
  onClose,
}: {
  file: { id: string; name: string };
  open: boolean;
  onClose: () => void;
}) {
  const toast = useToast();
  const [form] = Form.useForm<{ assignedToUid: string }>();
  const { data: session } = useSessionQuery(undefined);
  const colleagues = useColleaguesQuery(undefined, { skip: !open });
  const [request, { isLoading }] = useRequestSignatureMutation();
  const options = shareCandidates(colleagues.data?.items ?? [], session?.user.uid ?? '', '').map(
    (colleague) => ({
      value: colleague.uid,
      label: `${colleague.displayName} (${colleague.email})`,
    }),
  );
  return (
    <Modal
      open={open}
      title="Request Signature"
      okText="Send request"
      confirmLoading={isLoading}
      onCancel={onClose}
      onOk={() => {
        form.submit();
      }}
      destroyOnHidden
    >
      <Typography.Paragraph>
        Ask a colleague to sign <Typography.Text strong>{file.name}</Typography.Text>.
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={({ assignedToUid }) => {
          void request({ fileId: file.id, assignedToUid })
            .unwrap()
            .then((answer) => {
              toast.success(answer.message);
              onClose();
            })
            .catch((error: unknown) => {
              toast.error(errorMessage(error, 'Failed to request a signature'));
            });
        }}
      >
        <Form.Item
          label="Signer"
          name="assignedToUid"
          rules={[{ required: true, message: 'Choose who signs' }]}
        >
          <Select
            loading={colleagues.isLoading}
            options={options}
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="Search by name or email..."
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
