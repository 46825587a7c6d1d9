import type { CisReturn } from '@workspace/cis/contract';
import {
  CIS_DECLARATION_TEXTS,
  requiredDeclarations,
  taxMonthName,
  type CisDeclarationKey,
  type CisDeclarations,
} from '@workspace/rules';
import { Alert, App, Checkbox, Modal, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { pounds } from '../../../ui/format';
import { errorMessage } from '../../../ui/problem';
import { useSubmitReturnMutation } from '../api';
import { NO_GATEWAY } from './SubmittedReturn';

/**
 * Submit with the declarations (issue 13; HMRC notes §1.7): a return with payments asks for employment status,
 * verification and information correct, a nil return for information correct and, optionally, inactivity. Submit
 * stays disabled until the required boxes are ticked; what is ticked is sent as given (the service refuses a submit
 * without them and writes them into the CIS300).
 */
export function SubmitReturnDialog({
  ret,
  onClose,
  onSubmitted,
}: {
  /** The return to submit; null closes the dialog. */
  ret: CisReturn | null;
  onClose: () => void;
  onSubmitted?: (submitted: CisReturn) => void;
}) {
  const { modal } = App.useApp();
  const [submit, state] = useSubmitReturnMutation();
  const [ticked, setTicked] = useState<CisDeclarations>({});
  useEffect(() => {
    setTicked({});
  }, [ret?.id]);

  const nil = (ret?.lines.length ?? 0) === 0;
  const required = requiredDeclarations(nil);
  const asked: CisDeclarationKey[] = nil ? [...required, 'inactivity'] : required;
  const ready = required.every((key) => ticked[key] === true);
  const period = ret ? taxMonthName(ret.taxMonth) : '';

  const send = async () => {
    if (!ret || !ready) return;
    try {
      const declarations = Object.fromEntries(asked.map((key) => [key, ticked[key] === true]));
      const result = await submit({ id: ret.id, declarations }).unwrap();
      onSubmitted?.(result.return);
      onClose();
    } catch (failure) {
      // cis.md section 8's 'Submission Failed', with the service's reason (the dialog stays open, boxes as ticked).
      modal.error({
        title: 'Submission Failed',
        content: (
          <Space orientation="vertical">
            <span>Failed to submit return</span>
            <Typography.Text type="secondary">{errorMessage(failure, '')}</Typography.Text>
          </Space>
        ),
      });
    }
  };

  return (
    <Modal
      open={ret !== null}
      title={`Submit the ${ret?.amendmentOf ? 'amended ' : ''}return for the ${period}`}
      okText={ret?.amendmentOf ? 'Submit amended return' : 'Submit return'}
      okButtonProps={{ disabled: !ready }}
      confirmLoading={state.isLoading}
      onOk={() => void send()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="submit-return-dialog"
    >
      {ret && (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Paragraph style={{ margin: 0 }}>
            {nil
              ? 'This is a nil return: no payments to subcontractors in this month.'
              : `${ret.totals.subcontractors} ${ret.totals.subcontractors === 1 ? 'subcontractor' : 'subcontractors'}, ${pounds(ret.totals.grossP)} paid, ${pounds(ret.totals.cisDeductedP)} deducted.`}
          </Typography.Paragraph>
          <Typography.Text strong>Declarations: tick each one to declare it</Typography.Text>
          {asked.map((key) => (
            <Checkbox
              key={key}
              checked={ticked[key] === true}
              data-testid={`declaration-${key}`}
              onChange={(event) => {
                setTicked((before) => ({ ...before, [key]: event.target.checked }));
              }}
            >
              {CIS_DECLARATION_TEXTS[key]}
              {key === 'inactivity' && <Typography.Text type="secondary"> (optional)</Typography.Text>}
            </Checkbox>
          ))}
          <Alert type="info" showIcon title="What submitting does here" description={NO_GATEWAY} />
        </Space>
      )}
    </Modal>
  );
}
