import { Button, Card, Col, Form, Radio, Row, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useUpdateMeMutation } from '../../app/api';
import {
  accentColours,
  accentOf,
  defaultAppearance,
  fonts,
  layouts,
  radii,
  savedShift,
  scales,
  type Appearance,
} from '../../ui/appearance';
import { useToast } from '../../ui/feedback';
import { PrimaryColourDialog } from './PrimaryColourDialog';
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
  const [choosing, setChoosing] = useState(false);
  const accent = accentOf(draft);

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
          <Form.Item
            label="Primary colour"
            extra="The palette, the variations and the free saturation and lightness sliders are in Choose Primary Color, which saves the colour at once."
          >
            <Space wrap>
              <span
                aria-label="Accent preview"
                data-testid="accent-preview"
                data-colour={accent}
                style={{
                  display: 'inline-block',
                  width: 48,
                  height: 24,
                  borderRadius: 6,
                  background: accent,
                }}
              />
              <Typography.Text code>{accent}</Typography.Text>
              <Typography.Text type="secondary">{accentLabel(draft)}</Typography.Text>
              <Button
                onClick={() => {
                  setChoosing(true);
                }}
              >
                Choose Primary Color
              </Button>
            </Space>
          </Form.Item>
          <PrimaryColourDialog
            open={choosing}
            current={draft}
            onClose={() => {
              setChoosing(false);
            }}
            onApplied={(fields) => {
              setDraft((previous) => ({ ...previous, ...fields }));
            }}
          />
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
                // The primary colour is the dialog's: Defaults leaves it (colour and shift) as it is.
                setDraft((previous) => ({
                  ...defaultAppearance,
                  accent: previous.accent,
                  accentVariation: previous.accentVariation,
                  accentSaturation: previous.accentSaturation,
                  accentLightness: previous.accentLightness,
                }));
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

/** "Blue, Darker" or "Blue, saturation −10, lightness +5": the chosen colour and its shift in words. */
function accentLabel(appearance: Appearance): string {
  const name =
    accentColours.find((entry) => entry.value === appearance.accent.toUpperCase())?.name ?? 'Custom';
  const shift = savedShift(
    appearance.accentVariation,
    appearance.accentSaturation,
    appearance.accentLightness,
  );
  if (shift.saturation === 0 && shift.lightness === 0) return name;
  const labels = { lighter: 'Lighter', darker: 'Darker', muted: 'Muted' } as const;
  const preset = (['lighter', 'darker', 'muted'] as const).find((key) => {
    const candidate = savedShift(key, undefined, undefined);
    return candidate.saturation === shift.saturation && candidate.lightness === shift.lightness;
  });
  if (preset) return `${name}, ${labels[preset]}`;
  const signed = (value: number) => (value > 0 ? `+${value}` : String(value));
  return `${name}, saturation ${signed(shift.saturation)}, lightness ${signed(shift.lightness)}`;
}
