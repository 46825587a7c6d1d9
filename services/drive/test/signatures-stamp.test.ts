import { pdfSafeText, ukDateTime } from '../src/documents/stamp.js';

describe('the completion page text', () => {
  it('shows the time as the UK reads it, GMT in winter and BST in summer', () => {
    expect(ukDateTime(new Date('2026-01-15T09:05:07Z'))).toBe('15/01/2026, 09:05:07 GMT');
    expect(ukDateTime(new Date('2026-07-02T12:34:56Z'))).toBe('02/07/2026, 13:34:56 BST');
  });

  it('keeps names the standard PDF fonts can draw, drops accents and marks the rest', () => {
    expect(pdfSafeText('Ada Admin')).toBe('Ada Admin');
    expect(pdfSafeText('Zoë Łukasz')).toBe('Zoe Lukasz');
    expect(pdfSafeText('O’Brien – Site')).toBe('O’Brien – Site');
    expect(pdfSafeText('李雷')).toBe('??');
  });
});
