import { Button, Flex, Slider, Space, Typography } from 'antd';
import {
  clampShift,
  LIGHTNESS_RANGE,
  presetOf,
  SATURATION_RANGE,
  shiftOf,
  type AccentVariation,
  type ColourShift,
} from '../../ui/appearance';

const presets: { value: Exclude<AccentVariation, 'default'>; label: string }[] = [
  { value: 'lighter', label: 'Lighter' },
  { value: 'darker', label: 'Darker' },
  { value: 'muted', label: 'Muted' },
];

/** What to save for a shift: the preset it matches (else `default`) and the free slider values. */
export function savedFields(shift: ColourShift): {
  variation: AccentVariation;
  saturation: number;
  lightness: number;
} {
  const clamped = clampShift(shift);
  return { variation: presetOf(clamped) ?? 'default', ...clamped };
}

/**
 * The variation adjuster: Lighter, Darker and Muted set the spec's preset shifts, the two sliders shift freely
 * (saturation -100 to 100, lightness -50 to 50; arrow keys move a handle by 1, Page Up/Down by 2, Home/End to the
 * ends). With `withReset`, a Reset to Default button brings the shift back to none.
 */
export function VariationControls(props: {
  name: string;
  shift: ColourShift;
  onChange: (shift: ColourShift) => void;
  withReset?: boolean;
}) {
  const { name, shift, onChange, withReset } = props;
  const preset = presetOf(shift);
  const set = (next: ColourShift) => {
    onChange(clampShift(next));
  };
  return (
    <div>
      <Space wrap>
        {presets.map((button) => (
          <Button
            key={button.value}
            aria-pressed={preset === button.value}
            type={preset === button.value ? 'primary' : 'default'}
            onClick={() => {
              set(shiftOf(button.value));
            }}
          >
            {button.label}
          </Button>
        ))}
        {withReset ? (
          <Button
            onClick={() => {
              set(shiftOf('default'));
            }}
          >
            Reset to Default
          </Button>
        ) : null}
      </Space>
      <Flex vertical gap={4} style={{ marginTop: 12, maxWidth: 420 }}>
        <Typography.Text>
          Saturation shift: <span data-testid={`${name}-saturation-value`}>{signed(shift.saturation)}</span>
        </Typography.Text>
        <Slider
          min={SATURATION_RANGE.min}
          max={SATURATION_RANGE.max}
          value={shift.saturation}
          included={false}
          ariaLabelForHandle={`${name} saturation shift`}
          marks={{ [SATURATION_RANGE.min]: '−100', 0: '0', [SATURATION_RANGE.max]: '+100' }}
          onChange={(value) => {
            set({ ...shift, saturation: value });
          }}
        />
        <Typography.Text>
          Lightness shift: <span data-testid={`${name}-lightness-value`}>{signed(shift.lightness)}</span>
        </Typography.Text>
        <Slider
          min={LIGHTNESS_RANGE.min}
          max={LIGHTNESS_RANGE.max}
          value={shift.lightness}
          included={false}
          ariaLabelForHandle={`${name} lightness shift`}
          marks={{ [LIGHTNESS_RANGE.min]: '−50', 0: '0', [LIGHTNESS_RANGE.max]: '+50' }}
          onChange={(value) => {
            set({ ...shift, lightness: value });
          }}
        />
      </Flex>
    </div>
  );
}

function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}
