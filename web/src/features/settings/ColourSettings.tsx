import { Alert, Button, Card, ConfigProvider, Flex, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import type { Session } from '../../app/api';
import {
  accentColours,
  adjustColour,
  DEFAULT_DANGER,
  DEFAULT_SUCCESS,
  savedShift,
  type Branding,
  type ColourShift,
} from '../../ui/appearance';
import { useToast } from '../../ui/feedback';
import { fieldErrorMessage } from '../../ui/problem';
import { useSaveBrandingMutation } from './brandingApi';
import { EditSettingsOnly, SettingsPage } from './SettingsPage';
import { savedFields, VariationControls } from './VariationControls';

/** One status colour being edited: the base colour (undefined = antd's standard one) and its shift. */
interface ColourDraft {
  colour: string | undefined;
  shift: ColourShift;
}

function draftOf(branding: Branding, key: 'success' | 'danger'): ColourDraft {
  return key === 'success'
    ? {
        colour: branding.successColor,
        shift: savedShift(branding.successVariation, branding.successSaturation, branding.successLightness),
      }
    : {
        colour: branding.dangerColor,
        shift: savedShift(branding.dangerVariation, branding.dangerSaturation, branding.dangerLightness),
      };
}

/**
 * A Success or Danger colour picker: the standard colour or one of the 27 palette colours, and a variation (the
 * presets or the free saturation and lightness sliders).
 */
function StatusColourPicker(props: {
  name: 'Success' | 'Danger';
  standard: string;
  draft: ColourDraft;
  onChange: (draft: ColourDraft) => void;
}) {
  const { name, standard, draft, onChange } = props;
  const swatches = [{ name: `Standard ${name.toLowerCase()}`, value: undefined }, ...accentColours];
  const result = adjustColour(draft.colour ?? standard, draft.shift);
  return (
    <section aria-label={`${name} colour settings`} style={{ marginBottom: 24 }}>
      <Typography.Title level={5}>{name} colour</Typography.Title>
      <Flex wrap gap={8} role="radiogroup" aria-label={`${name} colour`}>
        {swatches.map((swatch) => {
          const checked = draft.colour === swatch.value;
          return (
            <Tooltip key={swatch.name} title={swatch.name}>
              <button
                type="button"
                role="radio"
                aria-checked={checked}
                aria-label={swatch.name}
                onClick={() => {
                  onChange({ ...draft, colour: swatch.value });
                }}
                style={{
                  width: 28,
                  height: 28,
                  borderRadius: 14,
                  background: swatch.value ?? standard,
                  cursor: 'pointer',
                  border: checked ? '3px solid #111827' : '1px solid #d1d5db',
                  outline: swatch.value === undefined ? '2px dashed #9ca3af' : undefined,
                  outlineOffset: 2,
                }}
              />
            </Tooltip>
          );
        })}
      </Flex>
      <Space wrap style={{ marginTop: 12 }}>
        <span
          aria-label={`${name} preview`}
          data-colour={result}
          style={{ display: 'inline-block', width: 48, height: 24, borderRadius: 6, background: result }}
        />
        <Typography.Text code>{result}</Typography.Text>
      </Space>
      <div style={{ marginTop: 12 }}>
        <VariationControls
          name={name}
          shift={draft.shift}
          withReset
          onChange={(shift) => {
            onChange({ ...draft, shift });
          }}
        />
      </div>
    </section>
  );
}

/**
 * The tenant's branding with the drafts in it. A standard colour leaves its key out, and no shift leaves the
 * variation and slider keys out; a preset shift saves its variation (as before the sliders) and the slider values.
 */
const STATUS_KEYS = new Set([
  'successColor',
  'successVariation',
  'successSaturation',
  'successLightness',
  'dangerColor',
  'dangerVariation',
  'dangerSaturation',
  'dangerLightness',
]);

function withColours(branding: Branding, success: ColourDraft, danger: ColourDraft): Branding {
  const rest = Object.fromEntries(
    Object.entries(branding).filter(([key]) => !STATUS_KEYS.has(key)),
  ) as Branding;
  const shifted = (draft: ColourDraft, prefix: 'success' | 'danger'): Branding => {
    const saved = savedFields(draft.shift);
    if (saved.saturation === 0 && saved.lightness === 0) return {};
    return {
      ...(saved.variation !== 'default' ? { [`${prefix}Variation`]: saved.variation } : {}),
      [`${prefix}Saturation`]: saved.saturation,
      [`${prefix}Lightness`]: saved.lightness,
    };
  };
  return {
    ...rest,
    ...(success.colour ? { successColor: success.colour } : {}),
    ...shifted(success, 'success'),
    ...(danger.colour ? { dangerColor: danger.colour } : {}),
    ...shifted(danger, 'danger'),
  };
}

/**
 * Color settings (admins, tenant.edit_settings): the Success and Danger colours of the whole tenant, saved in its
 * branding and applied to everyone's theme (antd colorSuccess and colorError: toasts, alerts, danger buttons).
 */
export function ColourSettings({ session }: { session: Session }) {
  const current = session.tenant.branding;
  const [success, setSuccess] = useState(() => draftOf(current, 'success'));
  const [danger, setDanger] = useState(() => draftOf(current, 'danger'));
  const [save, { isLoading }] = useSaveBrandingMutation();
  const toast = useToast();
  const apply = async () => {
    try {
      await save(withColours(current, success, danger)).unwrap();
      toast.success('Colours saved');
    } catch (error) {
      toast.error(fieldErrorMessage(error, 'Colours could not be saved'));
    }
  };
  const successColour = adjustColour(success.colour ?? DEFAULT_SUCCESS, success.shift);
  const dangerColour = adjustColour(danger.colour ?? DEFAULT_DANGER, danger.shift);
  return (
    <SettingsPage>
      <EditSettingsOnly session={session} action="change the organisation's colours">
        <Card title="Colours">
          <Typography.Paragraph type="secondary">
            The Success and Danger colours apply to everyone in {session.tenant.name}: confirmations, warnings
            of failure and buttons that delete.
          </Typography.Paragraph>
          <StatusColourPicker
            name="Success"
            standard={DEFAULT_SUCCESS}
            draft={success}
            onChange={setSuccess}
          />
          <StatusColourPicker name="Danger" standard={DEFAULT_DANGER} draft={danger} onChange={setDanger} />
          <ConfigProvider theme={{ token: { colorSuccess: successColour, colorError: dangerColour } }}>
            <Space wrap style={{ marginBottom: 24 }} aria-label="Colour preview">
              <Alert type="success" showIcon title="Invoice saved" />
              <Alert type="error" showIcon title="Invoice could not be saved" />
              <Button type="primary" danger>
                Delete
              </Button>
            </Space>
          </ConfigProvider>
          <Space style={{ display: 'flex' }}>
            <Button
              onClick={() => {
                setSuccess(draftOf(current, 'success'));
                setDanger(draftOf(current, 'danger'));
              }}
            >
              Cancel
            </Button>
            <Button type="primary" loading={isLoading} onClick={() => void apply()}>
              Apply Changes
            </Button>
          </Space>
        </Card>
      </EditSettingsOnly>
    </SettingsPage>
  );
}
