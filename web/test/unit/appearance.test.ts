import { enabledModules } from '../../src/app/modules';
import {
  accentColours,
  accentOf,
  adjustColour,
  buildTheme,
  clampShift,
  LIGHTNESS_RANGE,
  presetOf,
  SATURATION_RANGE,
  savedShift,
  statusColours,
  defaultAppearance,
  effectiveLayout,
  isDark,
  radii,
  tenantAccent,
  varyColour,
} from '../../src/ui/appearance';
import { initials } from '../../src/ui/UserAvatar';

describe('appearance rules', () => {
  it('uses the classic top bar under 768 px whatever the saved layout', () => {
    expect(effectiveLayout('sidebar', 767)).toBe('topbar');
    expect(effectiveLayout('topbar-nav', 500)).toBe('topbar');
    expect(effectiveLayout('sidebar', 768)).toBe('sidebar');
    expect(effectiveLayout('topbar-nav', 1280)).toBe('topbar-nav');
  });

  it('follows the system preference only in system mode', () => {
    expect(isDark('dark', false)).toBe(true);
    expect(isDark('light', true)).toBe(false);
    expect(isDark('system', true)).toBe(true);
    expect(isDark('system', false)).toBe(false);
  });

  it('applies the spec variation defaults: Lighter (0, +15), Darker (+5, -10), Muted (-20, +5)', () => {
    // #1677FF is hsl(215, 100%, 54.3%); the expected values are that HSL shifted and converted back by hand.
    expect(varyColour('#1677FF', 'default')).toBe('#1677FF');
    expect(varyColour('#1677ff', 'lighter')).toBe('#62A4FF'); // hsl(215, 100%, 69.3%)
    expect(varyColour('#1677FF', 'darker')).toBe('#005EE2'); // hsl(215, 100%, 44.3%): saturation is capped at 100%
    expect(varyColour('#1677FF', 'muted')).toBe('#4489EA'); // hsl(215, 80%, 59.3%)
  });

  it('offers 27 accent colours, the five corner radii with Medium by default, and a 100% scale', () => {
    expect(accentColours).toHaveLength(27);
    expect(new Set(accentColours.map((colour) => colour.value)).size).toBe(27);
    expect(radii.map((radius) => radius.label)).toEqual(['None', 'Small', 'Medium', 'Large', 'Full']);
    expect(defaultAppearance).toMatchObject({ radius: 'medium', scale: 100, font: 'Inter', mode: 'light' });
  });

  it('turns the settings into antd tokens', () => {
    const theme = buildTheme({ ...defaultAppearance, radius: 'large', scale: 125, font: 'Lato' }, false);
    expect(theme.token).toMatchObject({ borderRadius: 12, fontSize: 18, colorPrimary: '#1677FF' });
    expect(theme.token?.fontFamily).toMatch(/^"Lato"/);
  });
});

describe('accent variation sliders (WS-470)', () => {
  it('WS-470: bounds the shifts to saturation -100 to 100 and lightness -50 to 50', () => {
    expect(SATURATION_RANGE).toEqual({ min: -100, max: 100 });
    expect(LIGHTNESS_RANGE).toEqual({ min: -50, max: 50 });
  });

  it.each([
    // [saturation, lightness] in, clamped and rounded out
    [0, 0, 0, 0],
    [100, 50, 100, 50],
    [-100, -50, -100, -50],
    [150, 80, 100, 50],
    [-250, -51, -100, -50],
    [12.4, -7.6, 12, -8],
    [Number.NaN, Number.POSITIVE_INFINITY, 0, 0],
  ])('clamps the shift (%p, %p) to (%p, %p)', (saturation, lightness, expectedS, expectedL) => {
    expect(clampShift({ saturation, lightness })).toEqual({ saturation: expectedS, lightness: expectedL });
  });

  // #1677FF is hsl(215, 100%, 54.3%); the expected values are that HSL shifted, clamped and converted back.
  it.each([
    ['no shift gives the base colour itself', '#1677ff', 0, 0, '#1677FF'],
    ['no shift keeps a grey', '#64748B', 0, 0, '#64748B'],
    ['lightness +50 clamps at white', '#1677FF', 0, 50, '#FFFFFF'],
    ['lightness -50 clamps at black (Navy is 33 % light)', '#1E3A8A', 0, -50, '#000000'],
    ['lightness -50 from 54 % leaves 4 %', '#1677FF', 0, -50, '#000916'],
    ['saturation -100 gives the grey of the same lightness', '#1677FF', -100, 0, '#8A8A8A'],
    ['saturation +100 on a full colour stays full', '#1677FF', 100, 0, '#1677FF'],
    ['a shift beyond the bounds is the bound: lightness +80 is +50', '#1677FF', 0, 80, '#FFFFFF'],
    ['a free shift: saturation -30, lightness +10', '#1677FF', -30, 10, '#6499E4'],
    ['Darker by hand is the preset', '#10B981', 5, -10, '#088E62'],
  ])('%s (%s, %p, %p → %s)', (_name, hex, saturation, lightness, expected) => {
    expect(adjustColour(hex, { saturation, lightness })).toBe(expected);
  });

  it.each([
    [0, 0, 'default'],
    [0, 15, 'lighter'],
    [5, -10, 'darker'],
    [-20, 5, 'muted'],
    [-30, 10, undefined],
  ] as const)('names the shift (%p, %p) as the preset %p', (saturation, lightness, expected) => {
    expect(presetOf({ saturation, lightness })).toBe(expected);
  });

  it('loads values saved before the sliders (the preset alone) and after (the slider values win)', () => {
    expect(savedShift(undefined, undefined, undefined)).toEqual({ saturation: 0, lightness: 0 });
    expect(savedShift('darker', undefined, undefined)).toEqual({ saturation: 5, lightness: -10 });
    expect(savedShift('lighter', -30, 10)).toEqual({ saturation: -30, lightness: 10 });
    expect(savedShift('default', 200, undefined)).toEqual({ saturation: 100, lightness: 0 });
    // An appearance saved before the sliders still builds the same theme.
    expect(accentOf({ ...defaultAppearance, accentVariation: 'lighter' })).toBe('#62A4FF');
    expect(accentOf({ ...defaultAppearance, accentSaturation: -30, accentLightness: 10 })).toBe('#6499E4');
    expect(
      buildTheme(
        { ...defaultAppearance, accentVariation: 'lighter', accentSaturation: 0, accentLightness: 0 },
        false,
      ).token?.colorPrimary,
    ).toBe('#1677FF');
  });

  it('applies the Success and Danger sliders of the branding, and the old variation-only branding', () => {
    expect(statusColours(undefined)).toEqual({ success: '#52C41A', danger: '#FF4D4F' });
    expect(statusColours({ successColor: '#10B981', successVariation: 'darker' }).success).toBe('#088E62');
    expect(
      statusColours({
        dangerColor: '#1677FF',
        dangerVariation: 'darker',
        dangerSaturation: 0,
        dangerLightness: 50,
      }).danger,
    ).toBe('#FFFFFF');
  });
});

describe('shell helpers', () => {
  it('lists the enabled modules in catalogue order, none when nothing is enabled', () => {
    const modules = enabledModules([
      { id: 'cis', enabled: true },
      { id: 'chat', enabled: false },
      { id: 'schedule', enabled: true },
    ]);
    expect(modules.map((module) => module.label)).toEqual(['Schedule', 'CIS']);
    expect(enabledModules([{ id: 'cis', enabled: false }])).toEqual([]);
  });

  it('makes avatar initials from the first and last names', () => {
    expect(initials('Ada Admin')).toBe('AA');
    expect(initials('  Vera  ')).toBe('V');
    expect(initials('Mary Jane Watson')).toBe('MW');
  });
});

describe('tenantAccent (WS-215: branding accentColor or accentHsl)', () => {
  it.each([
    [{ accentColor: '#0EA5E9' }, '#0EA5E9'],
    [{ accentColor: '#0EA5E9', accentHsl: 'hsl(0 100% 50%)' }, '#0EA5E9'],
    [{ accentHsl: 'hsl(0 100% 50%)' }, '#FF0000'],
    [{ accentHsl: 'hsl(120, 100%, 25%)' }, '#008000'],
    [{ accentHsl: '240 100% 50%' }, '#0000FF'],
    [{ accentHsl: '210, 100%, 50%' }, '#007FFF'],
    [{ accentHsl: 'not a colour' }, undefined],
    [{ accentHsl: '#FF0000' }, undefined],
    [{}, undefined],
  ])('%p gives %p', (branding, expected) => {
    expect(tenantAccent(branding)).toBe(expected);
  });
});
