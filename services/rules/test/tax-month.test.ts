import {
  addDays,
  currentTaxMonth,
  daysBetween,
  formatTaxMonthEnding,
  isInTaxMonth,
  isIsoDate,
  isTaxMonthLabel,
  londonDate,
  nextTaxMonth,
  previousTaxMonth,
  taxMonthOf,
  taxMonthInSentence,
  taxMonthName,
  taxMonthEndShort,
  taxMonthFilePart,
  taxMonthTitle,
  taxMonthPeriod,
} from '../src/index.js';

describe('taxMonthOf a calendar date (spec §5 Tax month)', () => {
  test.each([
    ['2025-06-06', '2025-06'],
    ['2025-06-05', '2025-05'],
    ['2025-06-01', '2025-05'],
    ['2025-06-30', '2025-06'],
    ['2025-07-05', '2025-06'],
    ['2026-01-01', '2025-12'],
    ['2026-01-05', '2025-12'],
    ['2026-01-06', '2026-01'],
    ['2025-12-31', '2025-12'],
    ['2025-04-05', '2025-03'], // last day of tax year 2024-25
    ['2025-04-06', '2025-04'], // first day of tax year 2025-26
    ['2024-02-29', '2024-02'],
    ['2024-03-05', '2024-02'],
  ])('%s → %s', (date, label) => {
    expect(taxMonthOf(date)).toBe(label);
  });
});

describe('taxMonthOf an instant: converted to the Europe/London date first', () => {
  test.each([
    // 23:30 UTC on 5 June is 00:30 BST on 6 June in London
    [new Date('2025-06-05T23:30:00Z'), '2025-06'],
    ['2025-06-05T23:30:00Z', '2025-06'],
    ['2025-06-05T22:59:59Z', '2025-05'], // 23:59:59 BST on 5 June
    ['2025-06-05T23:00:00Z', '2025-06'], // midnight BST
    ['2025-06-06T00:30:00+01:00', '2025-06'],
    // GMT in winter: UTC and London agree
    ['2026-01-05T23:30:00Z', '2025-12'],
    ['2026-01-06T00:00:00Z', '2026-01'],
    // Around the change to BST (30 Mar 2025 01:00 UTC) and back to GMT (26 Oct 2025 01:00 UTC)
    ['2025-03-05T23:59:59Z', '2025-02'],
    ['2025-04-05T23:00:00Z', '2025-04'], // 00:00 BST on 6 April: new tax year
    ['2025-04-05T22:59:59Z', '2025-03'],
    ['2025-11-05T23:30:00Z', '2025-10'], // GMT again: still 5 November
    ['2025-10-05T23:30:00Z', '2025-10'], // BST: 00:30 on 6 October
    // a timestamp without a zone is London wall-clock time
    ['2025-06-05T23:30', '2025-05'],
    ['2025-06-05T23:30:00.123', '2025-05'],
  ])('%p → %s', (value, label) => {
    expect(taxMonthOf(value)).toBe(label);
  });

  test.each([
    ['2025-03-30T00:30:00Z', '2025-03-30'], // GMT, before the change
    ['2025-03-30T01:30:00Z', '2025-03-30'], // 02:30 BST
    ['2025-06-05T23:30:00Z', '2025-06-06'],
    ['2025-10-25T23:30:00Z', '2025-10-26'], // 00:30 BST
    ['2025-10-26T23:30:00Z', '2025-10-26'], // 23:30 GMT
    ['2025-12-31T23:59:59Z', '2025-12-31'],
  ])('londonDate(%s) = %s', (instant, date) => {
    expect(londonDate(new Date(instant))).toBe(date);
  });

  test.each([
    ['not a date'],
    [''],
    ['2025-13-01'],
    ['2025-02-30'],
    ['2025-6-6'],
    ['06/06/2025'],
    ['2025-02-30T10:00:00Z'],
  ])('invalid input %p throws a clear Error', (value) => {
    expect(() => taxMonthOf(value)).toThrow(/Invalid date/);
  });

  test('an invalid Date throws', () => {
    expect(() => taxMonthOf(new Date('nope'))).toThrow('Invalid date');
    expect(() => londonDate(new Date(Number.NaN))).toThrow('Invalid date');
  });

  test('currentTaxMonth uses the London date of now', () => {
    expect(currentTaxMonth(new Date('2025-06-05T23:30:00Z'))).toBe('2025-06');
    expect(typeof currentTaxMonth()).toBe('string');
    expect(isTaxMonthLabel(currentTaxMonth())).toBe(true);
  });
});

describe('taxMonthPeriod (spec §9; HMRC CISR12160 wording)', () => {
  test.each([
    // label, displayLabel, start, end, statements/filing, payment, taxYear, number
    [
      '2025-12',
      'Tax month ending 5 January 2026',
      '2025-12-06',
      '2026-01-05',
      '2026-01-19',
      '2026-01-22',
      '2025-26',
      9,
    ],
    [
      '2025-04',
      'Tax month ending 5 May 2025',
      '2025-04-06',
      '2025-05-05',
      '2025-05-19',
      '2025-05-22',
      '2025-26',
      1,
    ],
    [
      '2025-05',
      'Tax month ending 5 June 2025',
      '2025-05-06',
      '2025-06-05',
      '2025-06-19',
      '2025-06-22',
      '2025-26',
      2,
    ],
    [
      '2026-03',
      'Tax month ending 5 April 2026',
      '2026-03-06',
      '2026-04-05',
      '2026-04-19',
      '2026-04-22',
      '2025-26',
      12,
    ],
    [
      '2026-01',
      'Tax month ending 5 February 2026',
      '2026-01-06',
      '2026-02-05',
      '2026-02-19',
      '2026-02-22',
      '2025-26',
      10,
    ],
    [
      '2099-12',
      'Tax month ending 5 January 2100',
      '2099-12-06',
      '2100-01-05',
      '2100-01-19',
      '2100-01-22',
      '2099-00',
      9,
    ],
  ])('%s', (label, displayLabel, startDate, endDate, due19, due22, taxYear, taxMonthNumber) => {
    expect(taxMonthPeriod(label)).toEqual({
      label,
      displayLabel,
      startDate,
      endDate,
      periodEnd: endDate,
      taxYear,
      taxYearStart: Number(taxYear.slice(0, 4)),
      taxMonthNumber,
      deadlines: { statements: due19, filing: due19, payment: due22 },
    });
  });

  test('every month of a tax year is numbered 1..12 from April', () => {
    const labels = [
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
    ];
    const all = [...labels, '2026-01', '2026-02', '2026-03'];
    expect(all.map((l) => taxMonthPeriod(l).taxMonthNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(new Set(all.map((l) => taxMonthPeriod(l).taxYear))).toEqual(new Set(['2025-26']));
  });

  test('the period contains its own start and end dates and nothing outside', () => {
    const p = taxMonthPeriod('2025-12');
    expect(isInTaxMonth(p.startDate, '2025-12')).toBe(true);
    expect(isInTaxMonth(p.endDate, '2025-12')).toBe(true);
    expect(isInTaxMonth(addDays(p.startDate, -1), '2025-12')).toBe(false);
    expect(isInTaxMonth(addDays(p.endDate, 1), '2025-12')).toBe(false);
  });

  test.each([['2025-13'], ['2025-00'], ['2025-1'], ['202512'], [''], ['2025-12-01']])(
    'label %p throws',
    (label) => {
      expect(() => taxMonthPeriod(label)).toThrow(/Invalid tax month label/);
    },
  );

  test('formatTaxMonthEnding', () => {
    expect(formatTaxMonthEnding('2025-12')).toBe('Tax month ending 5 January 2026');
  });
});

describe('label arithmetic and predicates', () => {
  test.each([
    ['2025-01', '2024-12', '2025-02'],
    ['2025-12', '2025-11', '2026-01'],
    ['2025-06', '2025-05', '2025-07'],
  ])('%s: previous %s, next %s', (label, prev, next) => {
    expect(previousTaxMonth(label)).toBe(prev);
    expect(nextTaxMonth(label)).toBe(next);
  });

  test.each([
    ['2025-01', true],
    ['2025-12', true],
    ['2025-13', false],
    ['25-01', false],
    ['2025-1', false],
    [undefined, false],
    [202501, false],
  ])('isTaxMonthLabel(%p) = %p', (value, expected) => {
    expect(isTaxMonthLabel(value)).toBe(expected);
  });

  test.each([
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2025-04-31', false],
    ['2025-4-1', false],
  ])('isIsoDate(%p) = %p', (value, expected) => {
    expect(isIsoDate(value)).toBe(expected);
  });

  test.each([
    ['2025-06-15', '2025-06-19', 4],
    ['2025-06-19', '2025-06-15', -4],
    ['2025-03-29', '2025-03-31', 2], // across the BST change: still calendar days
    ['2025-10-25', '2025-10-27', 2],
    ['2024-02-28', '2024-03-01', 2],
    ['2025-12-31', '2026-01-01', 1],
    ['2025-06-15', '2025-06-15', 0],
  ])('daysBetween(%s, %s) = %i', (from, to, days) => {
    expect(daysBetween(from, to)).toBe(days);
  });

  test('daysBetween refuses bad dates', () => {
    expect(() => daysBetween('2025-06-15', '15/06/2025')).toThrow(/Invalid date/);
  });

  test.each([
    ['2025-06-15', 4, '2025-06-19'],
    ['2025-12-31', 1, '2026-01-01'],
    ['2024-03-01', -1, '2024-02-29'],
  ])('addDays(%s, %i) = %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });
});

describe('taxMonthInSentence', () => {
  it('puts the label inside a sentence with the month keeping its capital', () => {
    expect(taxMonthInSentence(taxMonthPeriod('2025-12'))).toBe('tax month ending 5 January 2026');
    expect(`Return submitted for the ${taxMonthInSentence(taxMonthPeriod('2026-11'))}`).toBe(
      'Return submitted for the tax month ending 5 December 2026',
    );
  });
});

describe('taxMonthName: a period as HMRC names it (issue 13)', () => {
  test.each([
    ['2026-10', 'month ending 5 November 2026', 'Month ending 5 November 2026'],
    ['2026-12', 'month ending 5 January 2027', 'Month ending 5 January 2027'],
    ['2026-03', 'month ending 5 April 2026', 'Month ending 5 April 2026'],
  ])('%s is the %s', (label, name, title) => {
    expect(taxMonthName(label)).toBe(name);
    expect(taxMonthTitle(label)).toBe(title);
  });

  test('short and file-name forms name the same month end', () => {
    expect(taxMonthEndShort('2026-12')).toBe('5 Jan 2027');
    expect(taxMonthFilePart('2026-10')).toBe('month-ending-2026-11-05');
  });

  test('a label that is not YYYY-MM is refused', () => {
    expect(() => taxMonthName('2026-13')).toThrow("expected 'YYYY-MM'");
  });
});
