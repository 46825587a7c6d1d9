import { Button, Card, Col, Flex, Form, Radio, Row, Select, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useUpdateMeMutation } from '../../app/api';
import {
  accentColours,
  defaultAppearance,
  fonts,
  layouts,
  radii,
  scales,
  varyColour,
  type AccentVariation,
  type Appearance,
} from '../../ui/appearance';
import { useToast } from '../../ui/feedback';
import { SettingsTabs } from './SettingsTabs';

/** The appearance panel: a draft the user edits, saved to their profile with Apply Changes. */
export function AppearanceSettings({ current }: { current: Appearance }) {
  const [draft, setDraft] = useState<Appearance>(current);
  const [updateMe, { isLoading }] = useUpdateMeMutation();
  const toast = useToast();
  const set = <K extends keyof Appearance>(key: K, value: Appearance[K]) => {
    setDraft((previous) => ({ ...previous, [key]: value }));
  };
  const apply = async () => {
    try {
      await updateMe({ themePreference: draft }).unwrap();
      toast.success('Appearance saved');
    } catch {
      toast.error('Appearance could not be saved');
    }
  };
  const variation = (value: AccentVariation) => {
    set('accentVariation', value);
  };

  return (
    <div>
      <Typography.Title level={2}>Settings</Typography.Title>
      <SettingsTabs />
      <Card title="Appearance">
        <Form layout="vertical">
          <Form.Item label="Theme mode">
            <Radio.Group
              optionType="button"
              value={draft.mode}
              onChange={(event) => {
                set('mode', event.target.value as Appearance['mode']);
              }}
              options={[
                { value: 'light', label: 'Light' },
                { value: 'dark', label: 'Dark' },
                { value: 'system', label: 'System' },
              ]}
            />
          </Form.Item>
          <Form.Item
            label="Navigation layout"
            extra="On screens under 768 px wide the classic top bar is always used."
          >
            <Radio.Group
              optionType="button"
              value={draft.layout}
              onChange={(event) => {
                set('layout', event.target.value as Appearance['layout']);
              }}
              options={layouts}
            />
          </Form.Item>
          <Row gutter={24}>
            <Col xs={24} md={8}>
              <Form.Item label="Corner radius">
                <Select
                  value={draft.radius}
                  onChange={(value) => {
                    set('radius', value);
                  }}
                  options={radii.map((radius) => ({ value: radius.value, label: radius.label }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item label="Scale">
                <Select
                  value={draft.scale}
                  onChange={(value) => {
                    set('scale', value);
                  }}
                  options={scales.map((scale) => ({ value: scale, label: `${scale}%` }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item label="Font">
                <Select
                  value={draft.font}
                  onChange={(value) => {
                    set('font', value);
                  }}
                  options={fonts.map((font) => ({ value: font, label: font }))}
                />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item label="Accent colour">
            <Flex wrap gap={8} role="radiogroup" aria-label="Accent colour">
              {accentColours.map((colour) => (
                <Tooltip key={colour.name} title={colour.name}>
                  <button
                    type="button"
                    role="radio"
                    aria-checked={draft.accent === colour.value}
                    aria-label={colour.name}
                    onClick={() => {
                      set('accent', colour.value);
                    }}
                    style={{
                      width: 28,
                      height: 28,
                      borderRadius: 14,
                      background: colour.value,
                      cursor: 'pointer',
                      border: draft.accent === colour.value ? '3px solid #111827' : '1px solid #d1d5db',
                    }}
                  />
                </Tooltip>
              ))}
            </Flex>
          </Form.Item>
          <Form.Item label="Accent variation">
            <Space wrap>
              <span
                aria-label="Accent preview"
                style={{
                  display: 'inline-block',
                  width: 48,
                  height: 24,
                  borderRadius: 6,
                  background: varyColour(draft.accent, draft.accentVariation),
                }}
              />
              <Button
                onClick={() => {
                  variation('lighter');
                }}
              >
                Lighter
              </Button>
              <Button
                onClick={() => {
                  variation('darker');
                }}
              >
                Darker
              </Button>
              <Button
                onClick={() => {
                  variation('muted');
                }}
              >
                Muted
              </Button>
              <Button
                onClick={() => {
                  variation('default');
                }}
              >
                Reset to Default
              </Button>
            </Space>
          </Form.Item>
          <Space>
            <Button
              onClick={() => {
                setDraft(current);
              }}
            >
              Cancel
            </Button>
            <Button
              onClick={() => {
                setDraft({ ...defaultAppearance, accent: current.accent });
              }}
            >
              Defaults
            </Button>
            <Button type="primary" loading={isLoading} onClick={() => void apply()}>
              Apply Changes
            </Button>
          </Space>
        </Form>
      </Card>
    </div>
  );
}
