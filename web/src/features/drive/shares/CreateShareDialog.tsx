import { Form, Input, Modal, Select } from 'antd';
import { useToast } from '../../../ui/feedback';
import { errorMessage } from '../../../ui/problem';
import { useCreateShareMutation, useShareLibrariesQuery, useShareLibraryFilesQuery } from './api';
import {
  NEW_SHARE_POLICY,
  policyRequest,
  SharePolicyFields,
  type SharePolicyForm,
} from './SharePolicyFields';
import type { Share } from './types';

interface CreateForm extends SharePolicyForm {
  name: string;
  libraryId: string;
  fileIds: string[];
}

/** Create Share (the exports toolbar): files of one library, a visibility, the policy and an optional passcode. */
export function CreateShareDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (share: Share) => void;
}) {
  const toast = useToast();
  const [form] = Form.useForm<CreateForm>();
  const libraryId = Form.useWatch('libraryId', form);
  const libraries = useShareLibrariesQuery(undefined);
  const files = useShareLibraryFilesQuery(libraryId, { skip: !libraryId });
  const [create, { isLoading }] = useCreateShareMutation();
  const submit = async (values: CreateForm) => {
    try {
      const share = await create({
        name: values.name.trim(),
        libraryId: values.libraryId,
        fileIds: values.fileIds,
        ...policyRequest(values),
      }).unwrap();
      toast.success('Share created');
      onCreated(share);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to create share'));
    }
  };
  return (
    <Modal
      open
      title="Create Share"
      okText="Create"
      confirmLoading={isLoading}
      onCancel={onClose}
      onOk={() => {
        form.submit();
      }}
      destroyOnHidden
    >
      <Form<CreateForm>
        form={form}
        layout="vertical"
        initialValues={{ ...NEW_SHARE_POLICY, fileIds: [] }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item
          label="Name"
          name="name"
          rules={[{ required: true, whitespace: true, message: 'Share name is required' }]}
        >
          <Input />
        </Form.Item>
        <Form.Item label="Library" name="libraryId" rules={[{ required: true, message: 'Choose a library' }]}>
          <Select
            loading={libraries.isLoading}
            options={(libraries.data?.libraries ?? []).map((library) => ({
              value: library.id,
              label: `${library.driveName} / ${library.name}`,
            }))}
            onChange={() => {
              form.setFieldValue('fileIds', []);
            }}
          />
        </Form.Item>
        <Form.Item
          label="Files"
          name="fileIds"
          rules={[{ required: true, message: 'Choose at least one file' }]}
        >
          <Select
            mode="multiple"
            disabled={!libraryId}
            loading={files.isFetching}
            showSearch={{ optionFilterProp: 'label' }}
            options={(files.data?.items ?? []).map((file) => ({ value: file.id, label: file.name }))}
          />
        </Form.Item>
        <SharePolicyFields passcodeHint="Optional: visitors must enter it to open the link." />
      </Form>
    </Modal>
  );
}
