import { Button, ConfigProvider, Flex, Modal, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useUpdateMeMutation } from '../../app/api';
import {
  accentColours,
  adjustColour,
  savedShift,
  shiftOf,
  type Appearance,
  type ColourShift,
} from '../../ui/appearance';
import { useToast } from '../../ui/feedback';
import { savedFields, VariationControls } from './VariationControls';

/** The accent part of the user's theme preference that the dialog saves. */
export type AccentFields = Pick<
  Appearance,
  'accent' | 'accentVariation' | 'accentSaturation' | 'accentLightness'
>;

/**
 * Choose Primary Color: the 27-colour palette grid, the variation adjuster (Lighter, Darker, Muted and the free
 * saturation and lightness sliders), a live preview, Reset to Default (no shift), Cancel and Apply Changes, which
 * saves the accent to the user's theme preference at once.
 */
export function PrimaryColourDialog(props: {
  open: boolean;
  current: Appearance;
  onClose: () => void;
  onApplied: (fields: AccentFields) => void;
}) {
  const { open, current, onClose, onApplied } = props;
  return (
    <Modal
      open={open}
      title="Choose Primary Color"
      onCancel={onClose}
      footer={null}
      width={560}
      destroyOnHidden
      aria-label="Choose Primary Color"
    >
      {/* Mounted on open (destroyOnHidden), so each opening starts from what is saved. */}
      <DialogBody current={current} onClose={onClose} onApplied={onApplied} />
    </Modal>
  );
}

function DialogBody(props: {
  current: Appearance;
  onClose: () => void;
  onApplied: (fields: AccentFields) => void;
}) {
  const { current, onClose, onApplied } = props;
  const [colour, setColour] = useState(current.accent.toUpperCase());
  const [shift, setShift] = useState<ColourShift>(() =>
    savedShift(current.accentVariation, current.accentSaturation, current.accentLightness),
  );
  const [updateMe, { isLoading }] = useUpdateMeMutation();
  const toast = useToast();
  const result = adjustColour(colour, shift);
  const named = accentColours.find((entry) => entry.value === colour)?.name;

  const apply = async () => {
    const saved = savedFields(shift);
    const fields: AccentFields = {
      accent: colour,
      accentVariation: saved.variation,
      accentSaturation: saved.saturation,
      accentLightness: saved.lightness,
    };
    try {
      await updateMe({ themePreference: fields }).unwrap();
      toast.success('Primary colour saved');
      onApplied(fields);
      onClose();
    } catch {
      toast.error('Primary colour could not be saved');
    }
  };

  return (
    <div>
      <Typography.Text strong>Palette</Typography.Text>
      <div
        role="radiogroup"
        aria-label="Primary colour palette"
        style={{ display: 'grid', gridTemplateColumns: 'repeat(9, 32px)', gap: 10, margin: '8px 0 16px' }}
      >
        {accentColours.map((swatch) => {
          const checked = colour === swatch.value;
          return (
            <Tooltip key={swatch.name} title={`${swatch.name} ${swatch.value}`}>
              <button
                type="button"
                role="radio"
                aria-checked={checked}
                aria-label={swatch.name}
                onClick={() => {
                  setColour(swatch.value);
                }}
                style={{
                  width: 32,
                  height: 32,
                  borderRadius: 8,
                  background: swatch.value,
                  cursor: 'pointer',
                  border: checked ? '3px solid #111827' : '1px solid #d1d5db',
                }}
              />
            </Tooltip>
          );
        })}
      </div>
      <Typography.Text strong>Variation</Typography.Text>
      <div style={{ margin: '8px 0 16px' }}>
        <VariationControls name="Primary" shift={shift} onChange={setShift} />
      </div>
      <Typography.Text strong>Preview</Typography.Text>
      <Flex align="center" gap={12} wrap style={{ margin: '8px 0 20px' }} aria-label="Primary colour preview">
        <span
          data-testid="primary-preview"
          data-colour={result}
          style={{ display: 'inline-block', width: 64, height: 32, borderRadius: 8, background: result }}
        />
        <Typography.Text code>{result}</Typography.Text>
        <Typography.Text type="secondary">{named ?? colour}</Typography.Text>
        <ConfigProvider theme={{ token: { colorPrimary: result } }}>
          <Space>
            <Button type="primary" tabIndex={-1}>
              Button
            </Button>
            <Tag color={result}>Tag</Tag>
          </Space>
        </ConfigProvider>
      </Flex>
      <Flex justify="space-between" wrap gap={8}>
        <Button
          onClick={() => {
            setShift(shiftOf('default'));
          }}
        >
          Reset to Default
        </Button>
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" loading={isLoading} onClick={() => void apply()}>
            Apply Changes
          </Button>
        </Space>
      </Flex>
    </div>
  );
}
