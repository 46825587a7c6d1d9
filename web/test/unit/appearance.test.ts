import { enabledModules } from '../../src/app/modules';
import {
  accentColours,
  buildTheme,
  defaultAppearance,
  effectiveLayout,
  isDark,
  radii,
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
