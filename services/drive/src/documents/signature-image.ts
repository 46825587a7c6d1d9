// The drawn signature a signer sends: a PNG data URL, checked to be a real, bounded PNG and re-encoded so nothing but
// the picture is kept (no text chunks, no other format in disguise).
import sharp from 'sharp';

/** The largest signature accepted: 512 KiB of PNG, at most 2000 × 1000 pixels. */
export const MAX_SIGNATURE_BYTES = 512 * 1024;
export const MAX_SIGNATURE_PIXELS = { width: 2000, height: 1000 };

const DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export class BadSignatureImage extends Error {}

/** The signature's PNG bytes, re-encoded; BadSignatureImage (a message a person reads) when it is not one. */
export async function signaturePng(dataUrl: string): Promise<Buffer> {
  const match = DATA_URL.exec(dataUrl.trim());
  if (!match?.[1])
    throw new BadSignatureImage('The signature must be a PNG image (a data:image/png;base64 URL).');
  const bytes = Buffer.from(match[1], 'base64');
  if (bytes.length > MAX_SIGNATURE_BYTES) {
    throw new BadSignatureImage('The signature image is too large (at most 512 KB).');
  }
  if (bytes.length < PNG_MAGIC.length || !bytes.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) {
    throw new BadSignatureImage('The signature is not a PNG image.');
  }
  try {
    const image = sharp(bytes, {
      limitInputPixels: MAX_SIGNATURE_PIXELS.width * MAX_SIGNATURE_PIXELS.height,
    });
    const meta = await image.metadata();
    if (meta.format !== 'png' || !meta.width || !meta.height) throw new Error('not a png');
    if (meta.width > MAX_SIGNATURE_PIXELS.width || meta.height > MAX_SIGNATURE_PIXELS.height) {
      throw new BadSignatureImage('The signature image is too large (at most 2000 × 1000 pixels).');
    }
    return await image.png().toBuffer();
  } catch (error) {
    if (error instanceof BadSignatureImage) throw error;
    throw new BadSignatureImage('The signature is not a readable PNG image.');
  }
}
