// Unit tests of the staff app shell's shared rules (web/src/ui, web/src/app): the appearance option lists, the
// accent colours and surface presets, the super-admins' theme, the module catalogue, the display formats, the GET
// helper, the search debounce, the avatar photo and the toast and confirm settings.
import { jest } from '@jest/globals';
import { enabledModules, moduleCatalogue, moduleConfig } from '../../src/app/modules';
import {
  accentColours,
  buildTheme,
  darkSurfaces,
  defaultAppearance,
  fonts,
  isSuperAdmin,
  layouts,
  lightSurfaces,
  PLATFORM_THEME,
  radii,
  scales,
  surfacesFor,
} from '../../src/ui/appearance';
import { debounce, SEARCH_DEBOUNCE_MS } from '../../src/ui/debounce';
import { CONFIRM_DEFAULTS, confirmProps, TOAST_MS, TOAST_SECONDS } from '../../src/ui/feedback';
import {
  formatSettings,
  LOCALE,
  NA,
  pounds,
  TIME_ZONE,
  todayIso,
  ukDate,
  ukDateTime,
  ukTime,
} from '../../src/ui/format';
import { getJson, HttpError } from '../../src/ui/http';
import { photoOf } from '../../src/ui/photo';
import { avatarPixels, statusColours } from '../../src/ui/UserAvatar';

describe('appearance option lists', () => {
  it('WS-469, WS-141: corner radius None, Small, Medium, Large, Full with Medium the default', () => {
    expect(radii.map((radius) => radius.label)).toEqual(['None', 'Small', 'Medium', 'Large', 'Full']);
    expect(radii.map((radius) => radius.px)).toEqual([0, 4, 8, 12, 20]);
    expect(defaultAppearance.radius).toBe('medium');
  });

  it('WS-469, WS-142: scale 75, 90, 100, 110, 125 percent with 100 (a factor of 1) the default', () => {
    expect(scales).toEqual([75, 90, 100, 110, 125]);
    expect(defaultAppearance.scale / 100).toBe(1);
    // The scale sizes the base font: 14 px at 100 %.
    const fontSizes = scales.map(
      (scale) => buildTheme({ ...defaultAppearance, scale }, false).token?.fontSize,
    );
    expect(fontSizes).toEqual([11, 13, 14, 15, 18]);
  });

  it('WS-469, WS-143: fonts Inter (default), Outfit, Plus Jakarta Sans, DM Sans, Space Grotesk, Roboto, Open Sans, Lato, System', () => {
    expect([...fonts]).toEqual([
      'Inter',
      'Outfit',
      'Plus Jakarta Sans',
      'DM Sans',
      'Space Grotesk',
      'Roboto',
      'Open Sans',
      'Lato',
      'System',
    ]);
    expect(defaultAppearance.font).toBe('Inter');
    for (const font of fonts) {
      const family = buildTheme({ ...defaultAppearance, font }, false).token?.fontFamily ?? '';
      if (font === 'System') expect(family.startsWith('system-ui')).toBe(true);
      else expect(family.startsWith(`"${font}"`)).toBe(true);
    }
  });

  it('WS-469: layouts topbar, sidebar, topbar-nav', () => {
    expect(layouts.map((layout) => layout.value)).toEqual(['topbar', 'sidebar', 'topbar-nav']);
  });
});

describe('accent colours and surface presets', () => {
  it('WS-218: all 27 accent colours carry a name, a hex value and the same colour as hsl()', () => {
    expect(accentColours).toHaveLength(27);
    for (const colour of accentColours) {
      expect(colour.name).toMatch(/^[A-Z][a-z]+$/);
      expect(colour.value).toMatch(/^#[0-9A-F]{6}$/);
      const match = /^hsl\((\d{1,3}), (\d{1,3})%, (\d{1,3})%\)$/.exec(colour.hsl);
      expect(match).not.toBeNull();
      // The hsl() converts back to the hex value within rounding (one step of each channel).
      const [h, s, l] = (match ?? []).slice(1).map(Number) as [number, number, number];
      const [r, g, b] = hexToRgb(colour.value);
      const back = hslToRgb(h, s / 100, l / 100);
      expect(Math.abs(back[0] - r)).toBeLessThanOrEqual(4);
      expect(Math.abs(back[1] - g)).toBeLessThanOrEqual(4);
      expect(Math.abs(back[2] - b)).toBeLessThanOrEqual(4);
    }
    expect(new Set(accentColours.map((colour) => colour.name)).size).toBe(27);
  });

  it('WS-219, WS-147: every dark and light surface preset has a name, primary, elevated, surface and border', () => {
    expect(lightSurfaces.length).toBeGreaterThanOrEqual(3);
    expect(darkSurfaces.length).toBeGreaterThanOrEqual(3);
    for (const preset of [...lightSurfaces, ...darkSurfaces]) {
      expect(preset.name).toMatch(/^[A-Z]/);
      for (const key of ['primary', 'elevated', 'surface', 'border'] as const)
        expect(preset[key]).toMatch(/^#[0-9A-F]{6}$/);
    }
    // Light presets are light, dark presets dark (the content background).
    for (const preset of lightSurfaces) expect(luminance(preset.primary)).toBeGreaterThan(0.85);
    for (const preset of darkSurfaces) expect(luminance(preset.primary)).toBeLessThan(0.15);
    expect(lightSurfaces[0]?.name).toBe('Classic');
    expect(darkSurfaces[0]?.name).toBe('Classic');
  });

  it('WS-146: the chosen preset of the mode in force gives the theme its surfaces; unknown ids fall back to Classic', () => {
    const appearance = { ...defaultAppearance, surfaceLight: 'paper', surfaceDark: 'navy' };
    expect(surfacesFor(appearance, false).name).toBe('Paper');
    expect(surfacesFor(appearance, true).name).toBe('Navy');
    expect(buildTheme(appearance, false).token).toMatchObject({
      colorBgContainer: '#FFFDF8',
      colorBgElevated: '#FFFFFF',
      colorBgLayout: '#F4EFE6',
      colorBorder: '#DDD5C7',
    });
    expect(buildTheme({ ...appearance, mode: 'dark' }, false).token).toMatchObject({
      colorBgContainer: '#12203A',
      colorBgLayout: '#0A1628',
    });
    expect(surfacesFor({ ...defaultAppearance, surfaceLight: 'gone' }, false).name).toBe('Classic');
  });
});

describe('platform super-admins have their own theme (WS-004)', () => {
  it('WS-004: a session with system.superadmin gets the platform accent and status colours, whatever the branding', () => {
    expect(isSuperAdmin(['tenant.view', 'system.superadmin'])).toBe(true);
    expect(isSuperAdmin(['*'])).toBe(false);
    expect(isSuperAdmin(undefined)).toBe(false);
    const branding = { successColor: '#10B981', dangerColor: '#F43F5E' };
    const appearance = { ...defaultAppearance, accent: '#EC4899', radius: 'large' as const };
    const tenantTheme = buildTheme(appearance, false, branding);
    const platformTheme = buildTheme(appearance, false, branding, { superAdmin: true });
    expect(tenantTheme.token).toMatchObject({ colorPrimary: '#EC4899', colorSuccess: '#10B981' });
    expect(platformTheme.token).toMatchObject({
      colorPrimary: PLATFORM_THEME.accent,
      colorSuccess: PLATFORM_THEME.success,
      colorError: PLATFORM_THEME.danger,
      borderRadius: 12, // their own appearance still applies
    });
    expect(accentColours.map((colour) => colour.value)).not.toContain(PLATFORM_THEME.accent);
  });
});

describe('module catalogue', () => {
  it('WS-217: every entry has an id, a label, a route, an icon and a default config', () => {
    expect(moduleCatalogue.map((entry) => entry.id)).toEqual([
      'schedule',
      'notes',
      'chat',
      'calls',
      'tasks',
      'drive',
      'cis',
    ]);
    for (const entry of moduleCatalogue) {
      expect(entry.id).toMatch(/^[a-z]+$/);
      expect(entry.label.length).toBeGreaterThan(0);
      expect(entry.route).toMatch(/^\/[a-z]/);
      expect(entry.icon.length).toBeGreaterThan(0);
      expect(typeof entry.defaultConfig).toBe('object');
      expect(Object.keys(entry.defaultConfig).length).toBeGreaterThan(0);
    }
    const schedule = moduleCatalogue[0];
    if (!schedule) throw new Error('no schedule entry');
    expect(moduleConfig(schedule, { workingHoursEnd: 18 })).toMatchObject({
      defaultView: 'month',
      workingHoursStart: 9,
      workingHoursEnd: 18,
    });
    expect(enabledModules([])).toEqual([]);
  });
});

describe('display formats', () => {
  it('WS-475: the formatters are en-GB in the Europe/London time zone', () => {
    expect(LOCALE).toBe('en-GB');
    expect(TIME_ZONE).toBe('Europe/London');
    expect(formatSettings.locale).toBe('en-GB');
    expect(formatSettings.timeZone).toBe('Europe/London');
  });

  it('WS-015, WS-475: dates read day/month/year and times are London time (GMT in winter, BST in summer)', () => {
    expect(ukDate('2026-04-05')).toBe('05/04/2026');
    expect(ukDate('2026-01-15T12:00:00Z')).toBe('15/01/2026');
    // 23:30 UTC on 30 June is already 1 July in London (BST, UTC+1).
    expect(ukDate('2026-06-30T23:30:00Z')).toBe('01/07/2026');
    expect(ukDateTime('2026-06-30T23:30:00Z')).toBe('01/07/2026, 00:30');
    expect(ukDateTime(new Date('2026-12-01T15:05:00Z'))).toBe('01/12/2026, 15:05');
    expect(ukTime('2026-07-01T08:15:00Z')).toBe('09:15');
    expect(todayIso(new Date('2026-06-30T23:30:00Z'))).toBe('2026-07-01');
  });

  it.each([['not a date'], [''], [null], [undefined], ['2026-02-30'], ['2026-13-01'], [Number.NaN]])(
    "WS-435: an invalid date (%p) shows 'N/A'",
    (value) => {
      expect(NA).toBe('N/A');
      expect(ukDate(value)).toBe('N/A');
    },
  );

  it.each([['not a date'], [''], [null], [undefined], [Number.NaN], ['2026-13-01T10:00:00Z']])(
    "WS-435: an invalid instant (%p) shows 'N/A' as a date-time and as a time",
    (value) => {
      expect(ukDateTime(value)).toBe('N/A');
      expect(ukTime(value)).toBe('N/A');
    },
  );

  it.each([
    [1234, '£12.34'],
    [0, '£0.00'],
    [5, '£0.05'],
    [100, '£1.00'],
    [123456, '£1,234.56'],
    [123456789, '£1,234,567.89'],
    [-1234, '-£12.34'],
    [12.5, '£0.00'],
    [null, '£0.00'],
  ])('WS-474: %p pence shows as %p', (pence, expected) => {
    expect(pounds(pence)).toBe(expected);
  });
});

describe('generic GET helper (WS-362)', () => {
  const answering = (response: Response) => jest.fn<typeof fetch>(() => Promise.resolve(response));

  it("WS-362: a 500 without a body fails with 'HTTP 500'", async () => {
    const fetchImpl = answering(new Response(null, { status: 500 }));
    const failure = getJson('/api/thing', fetchImpl).catch((error: unknown) => error);
    const error = await failure;
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe('HTTP 500');
    expect((error as HttpError).status).toBe(500);
  });

  it("WS-362: a failure's message is the body's error field; a body without one gives 'HTTP {status}'", async () => {
    await expect(
      getJson('/x', answering(Response.json({ error: 'Tenant not found' }, { status: 404 }))),
    ).rejects.toThrow('Tenant not found');
    await expect(
      getJson('/x', answering(Response.json({ message: 'nope' }, { status: 403 }))),
    ).rejects.toThrow(/^HTTP 403$/);
    await expect(
      getJson('/x', answering(new Response('<html>bad gateway</html>', { status: 502 }))),
    ).rejects.toThrow(/^HTTP 502$/);
  });

  it('WS-362: it asks for no caching and returns the JSON', async () => {
    const fetchImpl = answering(Response.json({ ok: 1 }));
    await expect(getJson<{ ok: number }>('/api/thing', fetchImpl)).resolves.toEqual({ ok: 1 });
    const [url, init] = fetchImpl.mock.calls[0] ?? [];
    expect(url).toBe('/api/thing');
    expect(init).toMatchObject({ method: 'GET', cache: 'no-store' });
  });
});

describe('search debounce (WS-464)', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('WS-464: runs once, 300 ms after the last of a burst of calls, with its arguments', () => {
    expect(SEARCH_DEBOUNCE_MS).toBe(300);
    const search = jest.fn<(text: string) => void>();
    const debounced = debounce(search);
    debounced.call('s');
    jest.advanceTimersByTime(200);
    debounced.call('si');
    jest.advanceTimersByTime(200);
    debounced.call('sit');
    jest.advanceTimersByTime(299);
    expect(search).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(search).toHaveBeenCalledTimes(1);
    expect(search).toHaveBeenCalledWith('sit');
  });

  it('WS-464: a cancelled call never runs', () => {
    const search = jest.fn<(text: string) => void>();
    const debounced = debounce(search);
    debounced.call('site');
    debounced.cancel();
    jest.advanceTimersByTime(1000);
    expect(search).not.toHaveBeenCalled();
  });
});

describe('avatar', () => {
  it.each([
    ['profilePhotoURL first', { profilePhotoURL: 'p.png', imageUrl: 'i.png', photoURL: 'f.png' }, 'p.png'],
    ['identity spells it profilePhotoUrl', { profilePhotoUrl: 'p2.png', imageUrl: 'i.png' }, 'p2.png'],
    ['then imageUrl', { profilePhotoURL: null, imageUrl: 'i.png', photoURL: 'f.png' }, 'i.png'],
    ['then photoURL', { profilePhotoURL: '', imageUrl: ' ', photoURL: 'f.png' }, 'f.png'],
    ['none', { profilePhotoUrl: null }, null],
  ])('WS-210: the photo is profilePhotoURL or imageUrl or photoURL (%s)', (_case, user, expected) => {
    expect(photoOf(user)).toBe(expected);
  });

  it('WS-155: five sizes xs to xl, growing, and a colour per status', () => {
    expect(Object.keys(avatarPixels)).toEqual(['xs', 'sm', 'md', 'lg', 'xl']);
    const sizes = Object.values(avatarPixels);
    expect([...sizes].sort((a, b) => a - b)).toEqual(sizes);
    expect(new Set(Object.values(statusColours)).size).toBe(3);
    expect(Object.keys(statusColours)).toEqual(['active', 'busy', 'unavailable']);
  });
});

describe('toasts and the confirm dialog', () => {
  it('WS-437, WS-169: a toast lasts 4 seconds (4000 ms)', () => {
    expect(TOAST_SECONDS).toBe(4);
    expect(TOAST_MS).toBe(4000);
  });

  it("WS-170, WS-171: the confirm dialog defaults to 'Confirm Action', 'Are you sure?', Confirm and Cancel", () => {
    expect(CONFIRM_DEFAULTS).toMatchObject({ title: 'Confirm Action', message: 'Are you sure?' });
    const props = confirmProps();
    expect(props).toMatchObject({
      title: 'Confirm Action',
      content: 'Are you sure?',
      okText: 'Confirm',
      cancelText: 'Cancel',
      style: 'primary',
      keyboard: true,
      mask: { closable: true },
    });
    expect(confirmProps({ title: 'Remove?', message: 'Really?' })).toMatchObject({
      title: 'Remove?',
      content: 'Really?',
      okText: 'Confirm',
    });
  });

  it('WS-172: styles primary, danger and warning', () => {
    expect(confirmProps({ style: 'primary' }).okButtonProps).toMatchObject({ danger: false });
    expect(confirmProps({ style: 'danger' }).okButtonProps).toMatchObject({ danger: true });
    expect(confirmProps({ style: 'warning' }).okButtonProps).toMatchObject({
      danger: false,
      color: 'gold',
      variant: 'solid',
    });
  });
});

function hexToRgb(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] =
    h < 60
      ? [c, x, 0]
      : h < 120
        ? [x, c, 0]
        : h < 180
          ? [0, c, x]
          : h < 240
            ? [0, x, c]
            : h < 300
              ? [x, 0, c]
              : [c, 0, x];
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}

function luminance(hex: string): number {
  const [r, g, b] = hexToRgb(hex);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}
