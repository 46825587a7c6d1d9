import {
  taxMonthName,
  taxYearDates,
  taxYearMonths,
  taxYearName,
  taxYearSpan,
  taxYearStartOf,
} from '../src/index.js';

describe('HMRC tax years (6 April to 5 April)', () => {
  test.each([
    ['2026-04-05', 2025],
    ['2026-04-06', 2026],
    ['2026-11-27', 2026],
    ['2027-01-05', 2026],
    ['2027-04-05', 2026],
    ['2027-04-06', 2027],
  ])('%s is in the tax year starting %i', (date, start) => {
    expect(taxYearStartOf(date)).toBe(start);
  });

  test('the twelve tax months of 2026-27, named as HMRC names them', () => {
    const months = taxYearMonths(2026);
    expect(months).toEqual([
      '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09',
      '2026-10', '2026-11', '2026-12', '2027-01', '2027-02', '2027-03',
    ]); // prettier-ignore
    expect(taxMonthName(months[0] ?? '')).toBe('month ending 5 May 2026');
    expect(taxMonthName(months[11] ?? '')).toBe('month ending 5 April 2027');
  });

  test('names and dates', () => {
    expect(taxYearName(2026)).toBe('2026-27');
    expect(taxYearName(2099)).toBe('2099-00');
    expect(taxYearDates(2026)).toEqual({ startDate: '2026-04-06', endDate: '2027-04-05' });
    expect(taxYearSpan(2026)).toBe('6 April 2026 to 5 April 2027');
  });
});
