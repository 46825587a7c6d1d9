import { buildTheme, defaultAppearance, statusColours } from '../../src/ui/appearance';
import {
  imageLogoProblem,
  LOGO_IMAGE_MAX_BYTES,
  LOGO_IMAGE_TOO_LARGE,
  LOGO_IMAGE_WRONG_TYPE,
  LOGO_TEXT_MAX,
  LOGO_TEXT_TOO_LONG,
  logoImageType,
  textLogoProblem,
} from '../../src/ui/logo';

const bytes = (...values: number[]) => new Uint8Array(values);
const ascii = (text: string) => new TextEncoder().encode(text);

describe('logo limits', () => {
  it('keeps a text logo to 30 characters and an image to 2 MB', () => {
    expect(LOGO_TEXT_MAX).toBe(30);
    expect(LOGO_IMAGE_MAX_BYTES).toBe(2 * 1024 * 1024);
    expect(textLogoProblem('x'.repeat(30))).toBeNull();
    expect(textLogoProblem('x'.repeat(31))).toBe(LOGO_TEXT_TOO_LONG);
    expect(textLogoProblem('   ')).toBe('Enter the text of the logo.');
    const png = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
    expect(imageLogoProblem(LOGO_IMAGE_MAX_BYTES, png)).toBeNull();
    expect(imageLogoProblem(LOGO_IMAGE_MAX_BYTES + 1, png)).toBe(LOGO_IMAGE_TOO_LARGE);
  });

  it('reads the image type from the first bytes, not the name', () => {
    expect(logoImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('image/png');
    expect(logoImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(logoImageType(ascii('GIF87a...'))).toBe('image/gif');
    expect(logoImageType(ascii('GIF89a...'))).toBe('image/gif');
    expect(logoImageType(ascii('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(logoImageType(ascii('hello, I am text called logo.png'))).toBeNull();
    expect(logoImageType(bytes(0x89, 0x50, 0x4e, 0x47))).toBeNull();
    expect(imageLogoProblem(40, ascii('plain text'))).toBe(LOGO_IMAGE_WRONG_TYPE);
  });
});

describe('tenant status colours', () => {
  it("default to antd's and apply the tenant's colours with their variations to the theme", () => {
    expect(statusColours({})).toEqual({ success: '#52C41A', danger: '#FF4D4F' });
    const branding = {
      successColor: '#1677FF',
      successVariation: 'lighter',
      dangerColor: '#EF4444',
    } as const;
    expect(statusColours(branding)).toEqual({ success: '#62A4FF', danger: '#EF4444' });
    const token = buildTheme(defaultAppearance, false, branding).token ?? {};
    expect(token.colorSuccess).toBe('#62A4FF');
    expect(token.colorError).toBe('#EF4444');
  });
});
