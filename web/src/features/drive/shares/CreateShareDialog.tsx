import { Checkbox, Form, Input, Modal, Radio, Select } from 'antd';
import { useToast } from '../../../ui/feedback';
import { errorMessage } from '../../../ui/problem';
import { useCreateShareMutation, useShareLibrariesQuery, useShareLibraryFilesQuery } from './api';
import { splitAllowedUids } from '@workspace/drive/domain';
import type { Share, ShareVisibility } from './types';

interface CreateForm {
  name: string;
  libraryId: string;
  fileIds: string[];
  visibility: ShareVisibility;
  allowedIds: string;
  allowDownload: boolean;
  watermark: boolean;
  passcode: string;
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
  const visibility = Form.useWatch('visibility', form);
  const libraries = useShareLibrariesQuery(undefined);
  const files = useShareLibraryFilesQuery(libraryId, { skip: !libraryId });
  const [create, { isLoading }] = useCreateShareMutation();
  const submit = async (values: CreateForm) => {
    try {
      const share = await create({
        name: values.name.trim(),
        libraryId: values.libraryId,
        fileIds: values.fileIds,
        visibility: values.visibility,
        allowedUids: values.visibility === 'restricted' ? splitAllowedUids(values.allowedIds) : [],
        policy: { allowDownload: values.allowDownload, watermark: values.watermark, expiresAt: null },
        ...(values.passcode.trim() ? { passcode: values.passcode.trim() } : {}),
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
        initialValues={{
          visibility: 'public',
          allowedIds: '',
          allowDownload: true,
          watermark: false,
          passcode: '',
          fileIds: [],
        }}
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
        <Form.Item label="Visibility" name="visibility">
          <Radio.Group
            options={[
              { label: 'Tenant', value: 'tenant' },
              { label: 'Public', value: 'public' },
              { label: 'Restricted', value: 'restricted' },
            ]}
          />
        </Form.Item>
        {visibility === 'restricted' && (
          <Form.Item label="Allowed users" name="allowedIds" extra="User ids, separated by commas">
            <Input />
          </Form.Item>
        )}
        <Form.Item name="allowDownload" valuePropName="checked">
          <Checkbox>Allow download</Checkbox>
        </Form.Item>
        <Form.Item name="watermark" valuePropName="checked">
          <Checkbox>Watermark</Checkbox>
        </Form.Item>
        <Form.Item
          label="Passcode"
          name="passcode"
          extra="Optional: visitors must enter it to open the link."
          rules={[{ min: 4, message: 'A passcode needs at least 4 characters.' }]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
