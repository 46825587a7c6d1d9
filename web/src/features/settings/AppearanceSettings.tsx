import {
  Button,
  Card,
  ConfigProvider,
  Form,
  Radio,
  Row,
  Select,
  Space,
  Typography,
  type ColProps,
} from 'antd';
import { useState } from 'react';
import { useUpdateMeMutation, type Session } from '../../app/api';
import {
  accentColours,
  accentOf,
  buildTheme,
  darkSurfaces,
  defaultAppearance,
  fonts,
  isDark,
  isSuperAdmin,
  layouts,
  lightSurfaces,
  radii,
  savedShift,
  scales,
  surfacesFor,
  type Appearance,
} from '../../ui/appearance';
import { useConfirm, useToast } from '../../ui/feedback';
import { FieldCol } from '../../ui/FieldCol';
import { photoOf } from '../../ui/photo';
import { avatarPixels, UserAvatar, type AvatarSize } from '../../ui/UserAvatar';
import { PrimaryColourDialog } from './PrimaryColourDialog';
import { SettingsPage } from './SettingsPage';

/** One appearance setting chosen from a list, in a column of the panel's grid (the label names the select too). */
function SelectCol<Value extends string | number>({
  cols,
  label,
  extra,
  value,
  onChange,
  options,
}: {
  cols: ColProps;
  label: string;
  extra?: string;
  value: Value;
  onChange: (value: Value) => void;
  options: { value: Value; label: string }[];
}) {
  return (
    <FieldCol cols={cols} label={label} extra={extra}>
      <Select<Value> aria-label={label} value={value} onChange={onChange} options={options} />
    </FieldCol>
  );
}

/** The appearance panel: a draft the user edits, saved to their profile with Apply Changes. */
export function AppearanceSettings({ current, session }: { current: Appearance; session: Session }) {
  const [draft, setDraft] = useState<Appearance>(current);
  const [updateMe, { isLoading }] = useUpdateMeMutation();
  const toast = useToast();
  const confirm = useConfirm();
  const changed = JSON.stringify(draft) !== JSON.stringify(current);
  const discard = async () => {
    if (!changed) return;
    const sure = await confirm({
      title: 'Discard changes?',
      message: 'Your unsaved appearance changes will be lost.',
    });
    if (sure) setDraft(current);
  };
  const resetToDefaults = async () => {
    const sure = await confirm({
      title: 'Reset to defaults?',
      message:
        'The mode, layout, corner radius, scale, font and surfaces go back to the defaults; the primary colour stays. Apply Changes saves them.',
      confirmText: 'Reset',
      style: 'warning',
    });
    if (!sure) return;
    // The primary colour is the dialog's: Defaults leaves it (colour and shift) as it is.
    setDraft((previous) => ({
      ...defaultAppearance,
      accent: previous.accent,
      accentVariation: previous.accentVariation,
      accentSaturation: previous.accentSaturation,
      accentLightness: previous.accentLightness,
    }));
  };
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
    <SettingsPage>
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
            <SelectCol
              cols={{ xs: 24, md: 8 }}
              label="Corner radius"
              value={draft.radius}
              onChange={(value) => {
                set('radius', value);
              }}
              options={radii.map((radius) => ({ value: radius.value, label: radius.label }))}
            />
            <SelectCol
              cols={{ xs: 24, md: 8 }}
              label="Scale"
              value={draft.scale}
              onChange={(value) => {
                set('scale', value);
              }}
              options={scales.map((scale) => ({ value: scale, label: `${scale}%` }))}
            />
            <SelectCol
              cols={{ xs: 24, md: 8 }}
              label="Font"
              value={draft.font}
              onChange={(value) => {
                set('font', value);
              }}
              options={fonts.map((font) => ({ value: font, label: font }))}
            />
          </Row>
          <Row gutter={24}>
            <SelectCol
              cols={{ xs: 24, md: 12 }}
              label="Light surfaces"
              extra="The backgrounds and borders in light mode."
              value={draft.surfaceLight ?? 'classic'}
              onChange={(value) => {
                set('surfaceLight', value);
              }}
              options={lightSurfaces.map((preset) => ({ value: preset.id, label: preset.name }))}
            />
            <SelectCol
              cols={{ xs: 24, md: 12 }}
              label="Dark surfaces"
              extra="The backgrounds and borders in dark mode."
              value={draft.surfaceDark ?? 'classic'}
              onChange={(value) => {
                set('surfaceDark', value);
              }}
              options={darkSurfaces.map((preset) => ({ value: preset.id, label: preset.name }))}
            />
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
          <AppearancePreview draft={draft} session={session} />
          <Space>
            <Button onClick={() => void discard()}>Cancel</Button>
            <Button onClick={() => void resetToDefaults()}>Defaults</Button>
            <Button type="primary" loading={isLoading} onClick={() => void apply()}>
              Apply Changes
            </Button>
          </Space>
        </Form>
      </Card>
    </SettingsPage>
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

const previewSizes: AvatarSize[] = ['xs', 'sm', 'md', 'lg', 'xl'];

/**
 * The draft as it will look: its surfaces (the preset of the draft's mode), primary colour, radius, scale and font,
 * and the user's avatar in the five sizes with their status colour.
 */
function AppearancePreview({ draft, session }: { draft: Appearance; session: Session }) {
  const prefersDark = window.matchMedia('(prefers-color-scheme: dark)').matches;
  const dark = isDark(draft.mode, prefersDark);
  const surfaces = surfacesFor(draft, dark);
  const theme = buildTheme(draft, prefersDark, session.tenant.branding, {
    superAdmin: isSuperAdmin(session.scopes),
  });
  const name = session.user.displayName || session.user.email;
  return (
    <Form.Item label="Preview">
      <ConfigProvider theme={theme}>
        <div
          data-testid="preview-surface"
          data-surface={surfaces.name}
          style={{ background: surfaces.surface, padding: 16, borderRadius: 8 }}
        >
          <div
            data-testid="preview-primary"
            style={{
              background: surfaces.primary,
              border: `1px solid ${surfaces.border}`,
              padding: 16,
              borderRadius: theme.token?.borderRadius,
            }}
          >
            <Space orientation="vertical" size="middle">
              <Space wrap align="end" data-testid="avatar-sizes">
                {previewSizes.map((size) => (
                  <span key={size} data-size={size} data-pixels={avatarPixels[size]}>
                    <UserAvatar
                      name={name}
                      photoUrl={photoOf(session.user)}
                      size={size}
                      status={session.user.status}
                    />
                  </span>
                ))}
              </Space>
              <Space>
                <Button type="primary">Primary button</Button>
                <div
                  data-testid="preview-elevated"
                  style={{
                    background: surfaces.elevated,
                    border: `1px solid ${surfaces.border}`,
                    padding: '4px 12px',
                    borderRadius: theme.token?.borderRadius,
                    color: dark ? '#FFFFFFD9' : '#000000E0',
                  }}
                >
                  Menu or dialog
                </div>
              </Space>
            </Space>
          </div>
        </div>
      </ConfigProvider>
    </Form.Item>
  );
}
