// The watermark a share puts on what it hands out (ADR 0047): a line naming the viewer and the time, on every page
// of a PDF (@cantoo/pdf-lib) and across an image (sharp, an SVG composite). Other types cannot carry one.
import { degrees, PDFDocument, rgb, StandardFonts } from '@cantoo/pdf-lib';
import sharp from 'sharp';

/** The standard PDF fonts draw WinAnsi only: accents are dropped ('Zoë' → 'Zoe'), anything else becomes '?'. */
const winAnsi = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '?');

/** The PDF with `text` at the foot of every page and faintly across it. */
export async function watermarkPdf(bytes: Buffer, text: string): Promise<Buffer> {
  const pdf = await PDFDocument.load(bytes, { ignoreEncryption: true });
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const line = winAnsi(text);
  for (const page of pdf.getPages()) {
    const { width, height } = page.getSize();
    const size = Math.max(7, Math.min(12, width / 60));
    page.drawText(line, { x: 18, y: 14, size, font, color: rgb(0.55, 0.1, 0.1), opacity: 0.8 });
    page.drawText(line, {
      x: width * 0.12,
      y: height * 0.3,
      size: size * 1.5,
      font,
      color: rgb(0.55, 0.1, 0.1),
      opacity: 0.15,
      rotate: degrees(35),
    });
  }
  return Buffer.from(await pdf.save());
}

const escapeXml = (text: string): string =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );

/** The image with `text` across its foot (and faintly across its middle), in its own format (PNG for the rarer ones). */
export async function watermarkImage(
  bytes: Buffer,
  text: string,
): Promise<{ bytes: Buffer; mimeType: string }> {
  const image = sharp(bytes, { animated: false }).rotate();
  const { width, height, format } = await image.metadata();
  const size = Math.max(10, Math.round(Math.min(width, height) / 24));
  const line = escapeXml(text);
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${String(width)}" height="${String(height)}">
      <rect x="0" y="${String(height - size * 2)}" width="${String(width)}" height="${String(size * 2)}" fill="white" fill-opacity="0.6"/>
      <text x="${String(size / 2)}" y="${String(height - size * 0.6)}" font-family="DejaVu Sans, Arial, sans-serif"
        font-size="${String(size)}" fill="#8c1a1a">${line}</text>
      <text x="50%" y="50%" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif"
        font-size="${String(size * 1.4)}" fill="#8c1a1a" fill-opacity="0.25"
        transform="rotate(-30 ${String(width / 2)} ${String(height / 2)})">${line}</text>
    </svg>`,
  );
  const marked = image.composite([{ input: svg, top: 0, left: 0 }]);
  if (format === 'jpeg') return { bytes: await marked.jpeg().toBuffer(), mimeType: 'image/jpeg' };
  if (format === 'webp') return { bytes: await marked.webp().toBuffer(), mimeType: 'image/webp' };
  return { bytes: await marked.png().toBuffer(), mimeType: 'image/png' };
}
