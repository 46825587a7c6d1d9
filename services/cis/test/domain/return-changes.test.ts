import { returnChangesSince, type ReturnLine } from '../../src/domain/index.js';

const line = (
  subcontractorId: string,
  name: string,
  grossP: number,
  cisDeductedP: number,
  invoiceCount = 1,
): ReturnLine => ({
  subcontractorId,
  name,
  utrMasked: '',
  ninoMasked: '',
  verificationRef: '',
  grossP,
  materialsP: 0,
  cisDeductedP,
  cisRate: 20,
  invoiceCount,
  statementsIssued: true,
  lastStatementDate: null,
});

describe('a submitted return against the live figures', () => {
  it('is unchanged when every line is the same (the statement state does not count)', () => {
    const lines = [line('a', 'Alma', 1000, 200)];
    const changes = returnChangesSince(lines, [{ ...lines[0]!, statementsIssued: false }]);
    expect(changes).toMatchObject({ changed: false, lines: [] });
    expect(changes.totals.difference).toEqual({
      subcontractors: 0,
      invoices: 0,
      grossP: 0,
      materialsP: 0,
      cisDeductedP: 0,
    });
  });

  it('gives the difference per subcontractor (a new one, a changed one, one gone) and in total, by name', () => {
    const changes = returnChangesSince(
      [line('a', 'Alma', 1000, 200), line('c', 'Cara', 500, 100), line('b', 'Bert', 300, 60)],
      [line('a', 'Alma', 1500, 300, 2), line('b', 'Bert', 300, 60), line('d', 'Dee', 700, 140)],
    );
    expect(changes.changed).toBe(true);
    expect(
      changes.lines.map((l) => [l.name, l.submitted?.grossP ?? null, l.live?.grossP ?? null, l.difference]),
    ).toEqual([
      ['Alma', 1000, 1500, { grossP: 500, materialsP: 0, cisDeductedP: 100, invoiceCount: 1 }],
      ['Cara', 500, null, { grossP: -500, materialsP: 0, cisDeductedP: -100, invoiceCount: -1 }],
      ['Dee', null, 700, { grossP: 700, materialsP: 0, cisDeductedP: 140, invoiceCount: 1 }],
    ]);
    expect(changes.totals.difference).toEqual({
      subcontractors: 0,
      invoices: 1,
      grossP: 700,
      materialsP: 0,
      cisDeductedP: 140,
    });
  });
});
