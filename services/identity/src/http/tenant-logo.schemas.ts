import { z } from 'zod';
import {
  LOGO_IMAGE_MAX_BYTES,
  LOGO_IMAGE_TOO_LARGE,
  LOGO_TEXT_MAX,
  LOGO_TEXT_TOO_LONG,
} from '../domain/logo.js';

/** What the tenant's logo is: none, a text logo or an image (its type, size and a version tag, not its bytes). */
export const logoView = z.object({
  kind: z.enum(['none', 'text', 'image']),
  text: z.string().nullable(),
  contentType: z.string().nullable(),
  size: z.number().int().nullable(),
  etag: z.string().nullable(),
  updatedAt: z.string().nullable(),
});

/** A base64 string of at most 2 MB decoded, with a margin so that a little too much gets the clear message. */
const LOGO_BASE64_MAX = Math.ceil((LOGO_IMAGE_MAX_BYTES * 2) / 3) * 4;

export const logoInput = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('text'),
    text: z.string().trim().min(1, 'Enter the text of the logo.').max(LOGO_TEXT_MAX, LOGO_TEXT_TOO_LONG),
  }),
  z.object({
    kind: z.literal('image'),
    /** The file's bytes, base64. Its type is read from its content; the name is kept for nothing but logs. */
    data: z
      .string()
      .min(1, 'Choose an image file.')
      .max(LOGO_BASE64_MAX, LOGO_IMAGE_TOO_LARGE)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'The image must be sent as base64.'),
    fileName: z.string().max(255).optional(),
  }),
]);

export const logoImageView = z.object({ contentType: z.string(), etag: z.string(), data: z.string() });
