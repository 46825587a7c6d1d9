import { CheckCircleFilled } from '@ant-design/icons';
import { Button, Drawer, Form, Grid, Input, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect, useRef, useState } from 'react';
import {
  PROJECT_REQUEST_LIMITS,
  projectRequestFieldError,
  type ProjectRequestInput,
} from '@workspace/notification/project-requests';
import { PROJECT_REQUEST_CLOSE_MS, PROJECT_REQUEST_SUCCESS, sendProjectRequest } from './projectRequest';

/** The drawer's height: 70vh on a desktop, 85vh under 768 px wide (the spec's). */
export const DRAWER_HEIGHT = { desktop: '70vh', mobile: '85vh' } as const;

/** A form rule that runs the request schema's own check of the field (the same rule the API applies). */
const schemaRule =
  (field: keyof ProjectRequestInput): Rule =>
  () => ({
    validator: (_rule, value: unknown) => {
      const error = projectRequestFieldError(field, value ?? '');
      return error ? Promise.reject(new Error(error)) : Promise.resolve();
    },
  });

type Phase = 'form' | 'sending' | 'sent';

/**
 * The Start a project drawer (a bottom sheet): name and email required (the email's format checked), company and
 * message optional. After a request is received it says 'Thank you! We’ll be in touch shortly.' and closes 2 s later;
 * a failure is only logged (the spec's), the form stays as it was.
 */
export function ProjectDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<ProjectRequestInput>();
  const [phase, setPhase] = useState<Phase>('form');
  const screens = Grid.useBreakpoint();
  const closing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Under 768 px (antd's md breakpoint) the sheet is taller.
  const height = screens.md === false ? DRAWER_HEIGHT.mobile : DRAWER_HEIGHT.desktop;

  useEffect(
    () => () => {
      clearTimeout(closing.current);
    },
    [],
  );

  const close = () => {
    clearTimeout(closing.current);
    onClose();
  };

  const submit = async (values: ProjectRequestInput) => {
    setPhase('sending');
    try {
      await sendProjectRequest(values.name, values.email, values.company ?? '', values.message ?? '');
    } catch (error) {
      // eslint-disable-next-line no-console -- the spec: on failure the error is only logged (no message on screen)
      console.error('sendProjectRequest failed:', error instanceof Error ? error.message : error);
      setPhase('form');
      return;
    }
    setPhase('sent');
    closing.current = setTimeout(onClose, PROJECT_REQUEST_CLOSE_MS);
  };

  return (
    <Drawer
      open={open}
      placement="bottom"
      size={height}
      title="Start a project"
      onClose={close}
      afterOpenChange={(visible) => {
        if (!visible) {
          form.resetFields();
          setPhase('form');
        }
      }}
      rootClassName="site-project-drawer"
      styles={{ body: { display: 'flex', justifyContent: 'center' } }}
    >
      <div style={{ width: '100%', maxWidth: 640 }}>
        {phase === 'sent' ? (
          <div role="status" style={{ textAlign: 'center', paddingTop: 32 }}>
            <CheckCircleFilled style={{ fontSize: 56, color: '#52c41a' }} />
            <Typography.Title level={3}>{PROJECT_REQUEST_SUCCESS}</Typography.Title>
          </div>
        ) : (
          <Form
            form={form}
            layout="vertical"
            requiredMark="optional"
            disabled={phase === 'sending'}
            onFinish={(values) => void submit(values)}
          >
            <Form.Item label="Name" name="name" required rules={[schemaRule('name')]}>
              <Input autoComplete="name" maxLength={PROJECT_REQUEST_LIMITS.name} />
            </Form.Item>
            <Form.Item label="Email" name="email" required rules={[schemaRule('email')]}>
              <Input autoComplete="email" inputMode="email" maxLength={PROJECT_REQUEST_LIMITS.email} />
            </Form.Item>
            <Form.Item label="Company" name="company" rules={[schemaRule('company')]}>
              <Input autoComplete="organization" maxLength={PROJECT_REQUEST_LIMITS.company} />
            </Form.Item>
            <Form.Item
              label="Message"
              name="message"
              rules={[schemaRule('message')]}
              extra="What you do, how many subcontractors you pay, and which modules interest you."
            >
              <Input.TextArea rows={4} maxLength={PROJECT_REQUEST_LIMITS.message} />
            </Form.Item>
            <Button type="primary" htmlType="submit" block size="large" loading={phase === 'sending'}>
              Send request
            </Button>
          </Form>
        )}
      </div>
    </Drawer>
  );
}
