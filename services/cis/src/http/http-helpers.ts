import type { Response } from 'express';
import { dateOnly } from '../domain/timestamps.js';

/** Answers a CSV download (never cached). */
export function sendCsv(res: Response, filename: string, csv: string): void {
  res
    .status(200)
    .type('text/csv; charset=utf-8')
    .set('Content-Disposition', `attachment; filename="${filename}"`)
    .set('Cache-Control', 'no-store')
    .send(csv);
}

/** Answers a document (a PDF to show, an XML file to save), never cached. */
export function sendDocument(
  res: Response,
  document: { type: string; disposition: 'inline' | 'attachment'; filename: string; body: Buffer | string },
): void {
  res
    .status(200)
    .type(document.type)
    .set('Content-Disposition', `${document.disposition}; filename="${document.filename}"`)
    .set('Cache-Control', 'no-store')
    .send(document.body);
}

/** A timestamp column that is never null, as ISO 8601 text. */
export const timestamp = (value: Date | string): string => new Date(value).toISOString();

/** A calendar date column that is never null, as `YYYY-MM-DD`. */
export const calendarDate = (value: Date | string): string => dateOnly(value) ?? '';
