// Stamps a drawn signature into a PDF (ADR 0048): the signature on the last page, then a completion page saying who
// signed, when, and the SHA-256 of the document as it was before signing. The SHA-256 of the stamped document cannot
// be inside the document it hashes: the drive records it with the signature request (and the version's checksum).
import {
  EncryptedPDFError,
  PDFDocument,
  StandardFonts,
  rgb,
  type PDFFont,
  type PDFPage,
} from '@cantoo/pdf-lib';

export interface StampInput {
  pdf: Buffer;
  /** The signature as drawn: a validated PNG (documents/signature-image.ts). */
  signaturePng: Buffer;
  fileName: string;
  signer: { userId: string; name: string };
  requester: { userId: string; name: string };
  requestedAt: Date;
  signedAt: Date;
  taskId: string;
  /** The sha-256 (hex) of `pdf`. */
  hashBefore: string;
}

export type StampFailureReason = 'encrypted' | 'unreadable' | 'no_pages';

/** The PDF could not be stamped (encrypted, broken, empty): the request stays pending, nothing is stored. */
export class StampFailure extends Error {
  constructor(
    readonly reason: StampFailureReason,
    cause?: unknown,
  ) {
    super(`the PDF cannot be stamped: ${reason}`, { cause });
    this.name = 'StampFailure';
  }
}

/** The signature's box on the last page: bottom right, inside a 36 pt margin, at most 180 × 60 pt. */
const SIGNATURE_BOX = { width: 180, height: 60, margin: 36 };
const A4 = { width: 595.28, height: 841.89 };

const london = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});

/** An instant as the UK reads it: '27/11/2026, 06:00:03 GMT' (BST in summer). */
export const ukDateTime = (at: Date): string => london.format(at);

/** Letters NFKD does not take apart, to their base letter. */
const LATIN_BASE: Readonly<Record<string, string>> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', ı: 'i' };

/**
 * Text the standard PDF fonts can draw (WinAnsi): accents are dropped ('Zoë' → 'Zoe') and anything else outside the
 * set becomes '?'. The completion page also carries the signer's user id, which identifies them exactly.
 */
export function pdfSafeText(text: string): string {
  return Array.from(
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[ŁłĐđı]/g, (char) => LATIN_BASE[char] ?? char),
  )
    .map((char) => {
      const code = char.codePointAt(0) ?? 0;
      if (code >= 0x20 && code <= 0x7e) return char;
      if (code >= 0xa0 && code <= 0xff) return char;
      return '‘’“”–—…€'.includes(char) ? char : '?';
    })
    .join('');
}

async function load(bytes: Buffer): Promise<PDFDocument> {
  let document: PDFDocument;
  try {
    document = await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (error) {
    throw new StampFailure(error instanceof EncryptedPDFError ? 'encrypted' : 'unreadable', error);
  }
  if (document.isEncrypted) throw new StampFailure('encrypted');
  if (document.getPageCount() === 0) throw new StampFailure('no_pages');
  return document;
}

/** Lines of at most `width` points in `font` at `size` (words kept whole; a word too long is cut). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = word;
    while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
      let cut = line.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut -= 1;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

function drawSignatureOnPage(
  page: PDFPage,
  image: Awaited<ReturnType<PDFDocument['embedPng']>>,
  font: PDFFont,
  caption: string,
): void {
  const { width, height } = page.getSize();
  const scale = Math.min(SIGNATURE_BOX.width / image.width, SIGNATURE_BOX.height / image.height, 1);
  const drawn = { width: image.width * scale, height: image.height * scale };
  const x = Math.max(0, width - SIGNATURE_BOX.margin - SIGNATURE_BOX.width);
  const y = Math.min(SIGNATURE_BOX.margin + 10, Math.max(0, height - drawn.height - 10));
  page.drawImage(image, { x, y, width: drawn.width, height: drawn.height });
  page.drawLine({
    start: { x, y: y - 2 },
    end: { x: x + SIGNATURE_BOX.width, y: y - 2 },
    thickness: 0.5,
    color: rgb(0.4, 0.4, 0.4),
  });
  page.drawText(caption, {
    x,
    y: y - 10,
    size: 6.5,
    font,
    color: rgb(0.3, 0.3, 0.3),
    maxWidth: SIGNATURE_BOX.width,
  });
}

/**
 * The stamped PDF: `input.pdf` with the signature on its last page and the completion page after it. A PDF the
 * library cannot load or write (encrypted, broken, no pages) is a StampFailure.
 */
export async function stampSignature(input: StampInput): Promise<Buffer> {
  try {
    return await stamp(input);
  } catch (error) {
    throw error instanceof StampFailure ? error : new StampFailure('unreadable', error);
  }
}

async function stamp(input: StampInput): Promise<Buffer> {
  const document = await load(input.pdf);
  const [regular, bold, mono] = await Promise.all([
    document.embedFont(StandardFonts.Helvetica),
    document.embedFont(StandardFonts.HelveticaBold),
    document.embedFont(StandardFonts.Courier),
  ]);
  const image = await document.embedPng(input.signaturePng);
  const signer = pdfSafeText(input.signer.name);
  const signedOn = ukDateTime(input.signedAt);

  const pages = document.getPages();
  const last = pages[pages.length - 1];
  if (!last) throw new StampFailure('no_pages');
  drawSignatureOnPage(last, image, regular, `Signed by ${signer}, ${signedOn}`);

  const page = document.addPage([A4.width, A4.height]);
  const left = 56;
  const textWidth = A4.width - 2 * left;
  let y = A4.height - 72;
  const line = (text: string, font: PDFFont = regular, size = 11, gap = 6) => {
    for (const part of wrap(text, font, size, textWidth)) {
      page.drawText(part, { x: left, y, size, font, color: rgb(0.1, 0.1, 0.1) });
      y -= size + gap;
    }
  };
  line('Signature completion page', bold, 18, 14);
  line(`Document: ${pdfSafeText(input.fileName)}`);
  line(`Signed by: ${signer}`);
  line(`Signer's user id: ${input.signer.userId}`);
  line(`Signed on: ${signedOn} (Europe/London)`);
  line(`Requested by: ${pdfSafeText(input.requester.name)} (user id ${input.requester.userId})`);
  line(`Requested on: ${ukDateTime(input.requestedAt)} (Europe/London)`);
  line(`Signature request: ${input.taskId}`);
  y -= 8;
  line('SHA-256 of the document before signing:', bold, 11, 4);
  line(input.hashBefore, mono, 9, 10);
  line(
    'The SHA-256 of this signed document cannot be printed inside the document it describes. The drive records it ' +
      'with the signature request and shows it in the signed documents list; the signed pages before this one are ' +
      'the original document with the signature added to its last page.',
    regular,
    9,
    4,
  );
  y -= 16;
  line('Signature:', bold, 11, 4);
  const scale = Math.min(240 / image.width, 90 / image.height, 1);
  const height = image.height * scale;
  page.drawImage(image, { x: left, y: y - height, width: image.width * scale, height });

  return Buffer.from(await document.save({ useObjectStreams: false }));
}
