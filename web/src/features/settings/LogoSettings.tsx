import { Alert, Button, Card, Form, Input, Radio, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { Session } from '../../app/api';
import { useConfirm, useToast } from '../../ui/feedback';
import { imageLogoProblem, LOGO_TEXT_MAX, textLogoProblem } from '../../ui/logo';
import { fieldErrorMessage } from '../../ui/problem';
import { TenantLogo } from '../shell/TenantLogo';
import { useDeleteLogoMutation, useLogoSettingsQuery, useSaveLogoMutation } from './brandingApi';
import { EditSettingsOnly, SettingsPage } from './SettingsPage';

interface ChosenImage {
  fileName: string;
  data: string;
  previewUrl: string;
}

/** The file's bytes as base64 (without the data: URL's prefix). */
function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = reader.result as string;
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => {
      reject(reader.error ?? new Error('The file could not be read.'));
    };
    reader.readAsDataURL(file);
  });
}

/**
 * Logo settings (admins, tenant.edit_settings): a text logo of at most 30 characters, or an image logo (PNG, JPG
 * or GIF up to 2 MB, its type checked by its content before upload; identity checks again). The shell shows it in
 * the top bar and the sidebar.
 */
export function LogoSettings({ session }: { session: Session }) {
  const { data: logo } = useLogoSettingsQuery(undefined);
  const [saveLogo, { isLoading: saving }] = useSaveLogoMutation();
  const [deleteLogo, { isLoading: removing }] = useDeleteLogoMutation();
  const toast = useToast();
  const confirm = useConfirm();
  const [kind, setKind] = useState<'text' | 'image'>('text');
  const [text, setText] = useState('');
  const [textTouched, setTextTouched] = useState(false);
  const [image, setImage] = useState<ChosenImage | null>(null);
  const [imageProblem, setImageProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!logo) return;
    if (logo.kind === 'image') setKind('image');
    if (logo.kind === 'text') {
      setKind('text');
      setText(logo.text ?? '');
    }
  }, [logo]);
  useEffect(
    () => () => {
      if (image) URL.revokeObjectURL(image.previewUrl);
    },
    [image],
  );

  const textProblem = textLogoProblem(text);

  const choose = async (file: File | undefined) => {
    setImage(null);
    setImageProblem(null);
    if (!file) return;
    const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
    const problem = imageLogoProblem(file.size, head);
    if (problem) {
      setImageProblem(problem);
      return;
    }
    setImage({ fileName: file.name, data: await readAsBase64(file), previewUrl: URL.createObjectURL(file) });
  };

  const save = async () => {
    try {
      if (kind === 'text') {
        setTextTouched(true);
        if (textProblem) return;
        await saveLogo({ kind: 'text', text: text.trim() }).unwrap();
      } else {
        if (!image) return;
        await saveLogo({ kind: 'image', data: image.data, fileName: image.fileName }).unwrap();
        setImage(null);
      }
      toast.success('Logo saved');
    } catch (error) {
      const message = fieldErrorMessage(error, 'The logo could not be saved');
      if (kind === 'image') setImageProblem(message);
      toast.error(message);
    }
  };

  const remove = async () => {
    const sure = await confirm({
      title: 'Remove the logo?',
      message: 'The organisation’s name shows in its place.',
      confirmText: 'Remove',
      style: 'danger',
    });
    if (!sure) return;
    try {
      await deleteLogo(undefined).unwrap();
      setText('');
      toast.success('Logo removed');
    } catch (error) {
      toast.error(fieldErrorMessage(error, 'The logo could not be removed'));
    }
  };

  return (
    <SettingsPage>
      <EditSettingsOnly session={session} action="change the organisation's logo">
        <Card title="Logo">
          <Form layout="vertical">
            <Form.Item label="Current logo">
              <Space>
                <TenantLogo name={session.tenant.name} />
                {logo?.kind === 'none' && (
                  <Typography.Text type="secondary">(no logo: the name shows)</Typography.Text>
                )}
              </Space>
            </Form.Item>
            <Form.Item label="Logo type">
              <Radio.Group
                optionType="button"
                value={kind}
                onChange={(event) => {
                  setKind(event.target.value as 'text' | 'image');
                }}
                options={[
                  { value: 'text', label: 'Text logo' },
                  { value: 'image', label: 'Image logo' },
                ]}
              />
            </Form.Item>
            {kind === 'text' ? (
              <Form.Item
                label="Logo text"
                validateStatus={textTouched && textProblem ? 'error' : undefined}
                help={textTouched && textProblem ? textProblem : `At most ${LOGO_TEXT_MAX} characters.`}
              >
                <Input
                  aria-label="Logo text"
                  value={text}
                  count={{ show: true, max: LOGO_TEXT_MAX }}
                  style={{ maxWidth: 420 }}
                  onChange={(event) => {
                    setText(event.target.value);
                    setTextTouched(true);
                  }}
                />
              </Form.Item>
            ) : (
              <Form.Item label="Logo image" help="PNG, JPG or GIF, up to 2 MB.">
                <Space orientation="vertical">
                  <input
                    type="file"
                    aria-label="Logo image"
                    accept=".png,.jpg,.jpeg,.gif,image/png,image/jpeg,image/gif"
                    onChange={(event) => void choose(event.target.files?.[0])}
                  />
                  {imageProblem && <Alert type="error" showIcon title={imageProblem} role="alert" />}
                  {image && (
                    <img
                      src={image.previewUrl}
                      alt="Chosen logo"
                      style={{ height: 48, maxWidth: 240, objectFit: 'contain' }}
                    />
                  )}
                </Space>
              </Form.Item>
            )}
            <Space>
              <Button
                type="primary"
                loading={saving}
                disabled={kind === 'text' ? textProblem !== null : image === null}
                onClick={() => void save()}
              >
                Save Logo
              </Button>
              {logo && logo.kind !== 'none' && (
                <Button danger loading={removing} onClick={() => void remove()}>
                  Remove Logo
                </Button>
              )}
            </Space>
          </Form>
        </Card>
      </EditSettingsOnly>
    </SettingsPage>
  );
}
