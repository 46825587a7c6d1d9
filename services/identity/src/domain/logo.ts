/** The spec's logo limits: a text logo of at most 30 characters, an image of PNG, JPG or GIF up to 2 MB. */
export const LOGO_TEXT_MAX = 30;
/** 2 MB, read as 2 MiB (2 × 1024 × 1024 bytes). */
export const LOGO_IMAGE_MAX_BYTES = 2 * 1024 * 1024;

export type LogoContentType = 'image/png' | 'image/jpeg' | 'image/gif';

export const LOGO_TEXT_TOO_LONG = `The text logo can be at most ${LOGO_TEXT_MAX} characters.`;
export const LOGO_IMAGE_TOO_LARGE = 'The image logo can be at most 2 MB.';
export const LOGO_IMAGE_WRONG_TYPE =
  'The logo must be a PNG, JPG or GIF image. This file’s content is not one of those, whatever its name says.';

const startsWith = (bytes: Uint8Array, signature: number[]) =>
  bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF87A = [0x47, 0x49, 0x46, 0x38, 0x37, 0x61];
const GIF89A = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61];

/**
 * The image type by the file's content (its signature bytes), never by its name or the type a browser claims:
 * PNG 89 50 4E 47 0D 0A 1A 0A, JPEG FF D8 FF, GIF "GIF87a" or "GIF89a". Anything else is null.
 */
export function logoImageType(bytes: Uint8Array): LogoContentType | null {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  if (startsWith(bytes, GIF87A) || startsWith(bytes, GIF89A)) return 'image/gif';
  return null;
}
