import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Form, Input, Space, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { FooterSettings } from '@workspace/identity/contract';
import { useFooterQuery, useSaveFooterMutation } from '../../app/api';
import { useToast } from '../../ui/feedback';
import { LabelledInput } from '../../ui/LabelledInput';

type Named = 'About' | 'Privacy' | 'Terms';
const named: {
  name: Named;
  show: 'showAbout' | 'showPrivacy' | 'showTerms';
  label: 'aboutLabel' | 'privacyLabel' | 'termsLabel';
  url: 'aboutUrl' | 'privacyUrl' | 'termsUrl';
}[] = [
  { name: 'About', show: 'showAbout', label: 'aboutLabel', url: 'aboutUrl' },
  { name: 'Privacy', show: 'showPrivacy', label: 'privacyLabel', url: 'privacyUrl' },
  { name: 'Terms', show: 'showTerms', label: 'termsLabel', url: 'termsUrl' },
];

interface Problem {
  data?: { detail?: string; errors?: { field: string; message: string }[] };
}

/** The footer settings panel: the Display footer switch hides every other option when off. */
export function FooterSettingsPanel() {
  const { data: saved } = useFooterQuery(undefined);
  const [save, { isLoading }] = useSaveFooterMutation();
  const [draft, setDraft] = useState<FooterSettings | null>(null);
  const toast = useToast();
  useEffect(() => {
    if (saved) setDraft(saved);
  }, [saved]);
  if (!draft) return <Card title="Footer" loading />;
  const set = <K extends keyof FooterSettings>(key: K, value: FooterSettings[K]) => {
    setDraft({ ...draft, [key]: value });
  };
  const submit = async () => {
    try {
      await save(draft).unwrap();
      toast.success('Footer saved');
    } catch (error) {
      const problem = (error as Problem).data;
      toast.error(problem?.errors?.[0]?.message ?? problem?.detail ?? 'Footer could not be saved');
    }
  };
  return (
    <Card title="Footer" style={{ marginTop: 16 }}>
      <Form layout="vertical">
        <Form.Item label="Display footer">
          <Switch
            aria-label="Display footer"
            checked={draft.showFooter}
            onChange={(value) => {
              set('showFooter', value);
            }}
          />
        </Form.Item>
        {draft.showFooter && (
          <>
            <LabelledInput
              label="Display name"
              value={draft.displayName}
              maxLength={120}
              onChange={(value) => {
                set('displayName', value);
              }}
            />
            <Form.Item label="Powered by">
              <Space>
                <Switch
                  aria-label="Show Powered by"
                  checked={draft.showPoweredBy}
                  onChange={(value) => {
                    set('showPoweredBy', value);
                  }}
                />
                {draft.showPoweredBy && (
                  <Input
                    aria-label="Powered by text"
                    value={draft.poweredByText}
                    maxLength={120}
                    onChange={(event) => {
                      set('poweredByText', event.target.value);
                    }}
                  />
                )}
              </Space>
            </Form.Item>
            {named.map((entry) => (
              <Form.Item key={entry.name} label={entry.name}>
                <Space wrap>
                  <Switch
                    aria-label={`Show ${entry.name}`}
                    checked={draft[entry.show]}
                    onChange={(value) => {
                      set(entry.show, value);
                    }}
                  />
                  <Input
                    aria-label={`${entry.name} label`}
                    value={draft[entry.label]}
                    maxLength={60}
                    onChange={(event) => {
                      set(entry.label, event.target.value);
                    }}
                  />
                  <Input
                    aria-label={`${entry.name} URL`}
                    placeholder="https://… or /…"
                    value={draft[entry.url]}
                    maxLength={500}
                    style={{ minWidth: 260 }}
                    onChange={(event) => {
                      set(entry.url, event.target.value);
                    }}
                  />
                </Space>
              </Form.Item>
            ))}
            <Form.Item label="Custom links">
              {draft.links.length === 0 ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No custom links added yet" />
              ) : (
                <Space orientation="vertical" style={{ width: '100%' }}>
                  {draft.links.map((link, index) => {
                    const update = (changes: Partial<typeof link>) => {
                      set(
                        'links',
                        draft.links.map((item, i) => (i === index ? { ...item, ...changes } : item)),
                      );
                    };
                    return (
                      <Space key={link.id} wrap>
                        <Switch
                          aria-label={`Show link ${index + 1}`}
                          checked={link.enabled}
                          onChange={(enabled) => {
                            update({ enabled });
                          }}
                        />
                        <Input
                          aria-label={`Link ${index + 1} label`}
                          value={link.label}
                          maxLength={60}
                          onChange={(event) => {
                            update({ label: event.target.value });
                          }}
                        />
                        <Input
                          aria-label={`Link ${index + 1} URL`}
                          placeholder="https://… or /…"
                          value={link.url}
                          maxLength={500}
                          style={{ minWidth: 260 }}
                          onChange={(event) => {
                            update({ url: event.target.value });
                          }}
                        />
                        <Button
                          aria-label={`Remove link ${index + 1}`}
                          icon={<DeleteOutlined />}
                          onClick={() => {
                            set(
                              'links',
                              draft.links.filter((_, i) => i !== index),
                            );
                          }}
                        />
                      </Space>
                    );
                  })}
                </Space>
              )}
              <Button
                style={{ marginTop: 8 }}
                icon={<PlusOutlined />}
                onClick={() => {
                  set('links', [
                    ...draft.links,
                    { id: crypto.randomUUID().slice(0, 8), label: '', url: '', enabled: true },
                  ]);
                }}
              >
                Add link
              </Button>
            </Form.Item>
          </>
        )}
        <Space>
          <Button
            onClick={() => {
              setDraft(saved ?? draft);
            }}
          >
            Cancel
          </Button>
          <Button type="primary" loading={isLoading} onClick={() => void submit()}>
            Save Footer
          </Button>
        </Space>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          The footer appears at the bottom of every page of the app.
        </Typography.Paragraph>
      </Form>
    </Card>
  );
}
