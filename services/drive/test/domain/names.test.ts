import { nameStem, sanitiseName, slugify, uniqueName } from '../../src/domain/index.js';

describe('sanitiseName', () => {
  it('keeps an ordinary name as it is', () => {
    expect(sanitiseName('Site plan rev B.pdf')).toBe('Site plan rev B.pdf');
  });

  it('turns path separators and control characters into spaces and collapses runs of space', () => {
    expect(sanitiseName('../etc/passwd')).toBe('etc passwd');
    expect(sanitiseName('a\\b\u0000c\td\n.txt')).toBe('a b c d .txt');
    expect(sanitiseName('  spaced   out  .pdf  ')).toBe('spaced out .pdf');
  });

  it('removes leading dots (no hidden files) and names a blank file Untitled', () => {
    expect(sanitiseName('.env')).toBe('env');
    expect(sanitiseName('   ')).toBe('Untitled');
    expect(sanitiseName('...')).toBe('Untitled');
  });

  it('cuts a name to 255 characters, keeping its extension', () => {
    const cut = sanitiseName(`${'a'.repeat(300)}.pdf`);
    expect(cut).toHaveLength(255);
    expect(cut.endsWith('.pdf')).toBe(true);
    expect(sanitiseName('b'.repeat(300))).toHaveLength(255);
  });

  it('counts characters, not UTF-16 units, and never splits one', () => {
    const cut = sanitiseName(`${'😀'.repeat(300)}.txt`);
    expect(Array.from(cut)).toHaveLength(255);
    expect(cut.endsWith('.txt')).toBe(true);
  });

  it('normalises to NFC, so the same name typed two ways is one name', () => {
    expect(sanitiseName('Cafe\u0301.pdf')).toBe('Café.pdf');
  });
});

describe('uniqueName', () => {
  it("keeps a free name, then gives ' (2)', ' (3)' before the extension", () => {
    expect(uniqueName('Report.pdf', new Set())).toBe('Report.pdf');
    expect(uniqueName('Report.pdf', new Set(['report.pdf']))).toBe('Report (2).pdf');
    expect(uniqueName('Report.pdf', new Set(['report.pdf', 'report (2).pdf']))).toBe('Report (3).pdf');
    expect(uniqueName('README', new Set(['readme']))).toBe('README (2)');
  });

  it('compares without case (the taken names are lower-cased, as the store answers them)', () => {
    expect(uniqueName('REPORT.PDF', new Set(['report.pdf']))).toBe('REPORT (2).PDF');
  });

  it('stays within 255 characters when the suffix is added', () => {
    const long = `${'c'.repeat(251)}.pdf`;
    const next = uniqueName(long, new Set([long.toLowerCase()]));
    expect(next).toHaveLength(255);
    expect(next.endsWith(' (2).pdf')).toBe(true);
  });
});

describe('nameStem', () => {
  it('is the name without its extension', () => {
    expect(nameStem('Report.pdf')).toBe('Report');
    expect(nameStem('archive.tar.gz')).toBe('archive.tar');
    expect(nameStem('README')).toBe('README');
  });
});

describe('slugify', () => {
  it('lower-cases, removes punctuation and accents, and joins words with hyphens', () => {
    expect(slugify('Health & Safety: RAMS')).toBe('health-safety-rams');
    expect(slugify('  Café  Plans ')).toBe('cafe-plans');
    expect(slugify('Phase 2 -- Drawings')).toBe('phase-2-drawings');
  });
});
