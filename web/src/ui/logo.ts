/*
 * The spec's logo limits, checked in the browser before anything is sent (identity checks them again and is the
 * authority): a text logo of at most 30 characters; an image of PNG, JPG or GIF, at most 2 MB, its type read from
 * the file's first bytes, not from its name or the type the browser guesses from the name.
 */
export const LOGO_TEXT_MAX = 30;
/** 2 MB, read as 2 MiB (2 × 1024 × 1024 bytes), as identity reads it. */
export const LOGO_IMAGE_MAX_BYTES = 2 * 1024 * 1024;

export const LOGO_TEXT_TOO_LONG = `The text logo can be at most ${LOGO_TEXT_MAX} characters.`;
export const LOGO_IMAGE_TOO_LARGE = 'The image logo can be at most 2 MB.';
export const LOGO_IMAGE_WRONG_TYPE =
  'The logo must be a PNG, JPG or GIF image. This file’s content is not one of those, whatever its name says.';

export type LogoImageType = 'image/png' | 'image/jpeg' | 'image/gif';

const signatures: { type: LogoImageType; bytes: number[] }[] = [
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', bytes: [0x47, 0x49, 0x46, 0x38, 0x37, 0x61] }, // GIF87a
  { type: 'image/gif', bytes: [0x47, 0x49, 0x46, 0x38, 0x39, 0x61] }, // GIF89a
];

/** PNG 89 50 4E 47 0D 0A 1A 0A, JPEG FF D8 FF, GIF "GIF87a" / "GIF89a"; anything else is null. */
export function logoImageType(bytes: Uint8Array): LogoImageType | null {
  const match = signatures.find(
    (signature) =>
      bytes.length >= signature.bytes.length && signature.bytes.every((byte, index) => bytes[index] === byte),
  );
  return match?.type ?? null;
}

/** Why a text logo cannot be saved, or null when it can. */
export function textLogoProblem(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return 'Enter the text of the logo.';
  return trimmed.length > LOGO_TEXT_MAX ? LOGO_TEXT_TOO_LONG : null;
}

/** Why an image file cannot be the logo (size, then content), or null when it can. */
export function imageLogoProblem(size: number, firstBytes: Uint8Array): string | null {
  if (size > LOGO_IMAGE_MAX_BYTES) return LOGO_IMAGE_TOO_LARGE;
  return logoImageType(firstBytes) ? null : LOGO_IMAGE_WRONG_TYPE;
}
