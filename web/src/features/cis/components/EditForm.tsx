import { Form, type FormInstance } from 'antd';
import type { ReactNode } from 'react';
import { clearEditedErrors } from './formErrors';

/**
 * A CIS create/edit form: vertical labels, and as the user edits, the edited fields' errors and the save error clear
 * (`onEdit` hides the banner).
 */
export function EditForm<Values>({
  form,
  initialValues,
  onSave,
  onEdit,
  testId,
  noValidate,
  children,
}: {
  form: FormInstance<Values>;
  initialValues: Values;
  onSave: (values: Values) => Promise<void>;
  onEdit: () => void;
  testId: string;
  noValidate?: boolean;
  children: ReactNode;
}) {
  return (
    <Form<Values>
      form={form}
      layout="vertical"
      initialValues={initialValues as object}
      onFinish={(values) => void onSave(values)}
      onValuesChange={(changed) => {
        clearEditedErrors(form, changed);
        onEdit();
      }}
      data-testid={testId}
      noValidate={noValidate}
      // Enter in a date picker picks the typed date; it does not submit the form (the picker has handled it by now).
      onKeyDown={(event) => {
        if (event.key === 'Enter' && (event.target as HTMLElement).closest('.ant-picker'))
          event.preventDefault();
      }}
    >
      {children}
    </Form>
  );
}
