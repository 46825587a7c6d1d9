import {
  deadlineAlerts,
  invoiceMatchesPeriod,
  invoiceMatchesSearch,
  sha256Hex,
  statementKey,
} from '../../src/domain/index.js';

describe('deadlineAlerts (spec §4 Dashboard alerts)', () => {
  test('on 15 June with 7 days: the 19 and 22 June deadlines of 6 May–5 June', () => {
    expect(deadlineAlerts({ today: '2025-06-15', warningDays: 7 })).toEqual([
      {
        kind: 'statements',
        label: '2025-05',
        date: '2025-06-19',
        daysRemaining: 4,
        severity: 'high',
        message:
          'Payment and deduction statements for the month ending 5 June 2025 due in 4 days (19 June 2025)',
      },
      {
        kind: 'filing',
        label: '2025-05',
        date: '2025-06-19',
        daysRemaining: 4,
        severity: 'critical',
        message: 'CIS300 return filing for the month ending 5 June 2025 due in 4 days (19 June 2025)',
      },
      {
        kind: 'payment',
        label: '2025-05',
        date: '2025-06-22',
        daysRemaining: 7,
        severity: 'critical',
        message: 'CIS payment to HMRC for the month ending 5 June 2025 due in 7 days (22 June 2025)',
      },
    ]);
  });

  test.each([
    // today, warningDays, [kind@daysRemaining]
    ['2025-06-15', 3, []],
    ['2025-06-16', 3, ['statements@3', 'filing@3']],
    ['2025-06-19', 3, ['statements@0', 'filing@0', 'payment@3']],
    ['2025-06-19', 0, ['statements@0', 'filing@0']],
    ['2025-06-20', 3, ['payment@2']],
    ['2025-06-22', 3, ['payment@0']],
    ['2025-06-23', 30, ['statements@26', 'filing@26', 'payment@29']], // next month's deadlines (19/22 July)
    ['2025-06-01', 30, ['statements@18', 'filing@18', 'payment@21']], // tax month 2025-05, its own deadlines
    ['2026-01-03', 30, ['statements@16', 'filing@16', 'payment@19']], // across the year end
    ['2025-06-05', 30, ['statements@14', 'filing@14', 'payment@17']],
  ])('%s within %i days → %p', (today, warningDays, expected) => {
    expect(deadlineAlerts({ today, warningDays }).map((a) => `${a.kind}@${a.daysRemaining}`)).toEqual(
      expected,
    );
  });

  test('an explicit label looks at that month and the one before', () => {
    const alerts = deadlineAlerts({ today: '2025-06-18', label: '2025-06', warningDays: 1 });
    expect(alerts.map((a) => [a.label, a.kind, a.message])).toEqual([
      [
        '2025-05',
        'statements',
        'Payment and deduction statements for the month ending 5 June 2025 due tomorrow (19 June 2025)',
      ],
      [
        '2025-05',
        'filing',
        'CIS300 return filing for the month ending 5 June 2025 due tomorrow (19 June 2025)',
      ],
    ]);
  });

  test('due today wording and severities', () => {
    const alerts = deadlineAlerts({ today: '2025-06-22', warningDays: 0 });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.message).toBe(
      'CIS payment to HMRC for the month ending 5 June 2025 due today (22 June 2025)',
    );
    expect(alerts[0]?.severity).toBe('critical');
  });

  test('past deadlines are not alerts', () => {
    expect(deadlineAlerts({ today: '2025-06-23', warningDays: 3 })).toEqual([]);
  });
});

describe('invoice search and period filters (spec §5 Filters and search)', () => {
  const invoice = { invoiceNumber: 'INV-0042', subcontractorName: "O'Brien Roofing" };
  test.each([
    ['', true],
    ['inv-00', true],
    ['0042', true],
    ['roofing', true],
    ["O'BRIEN", true],
    ['plaster', false],
  ])('search %p → %p', (query, expected) => {
    expect(invoiceMatchesSearch(invoice, query)).toBe(expected);
  });

  test.each([
    ['2025-06-10', 'current', true],
    ['2025-06-05', 'current', false], // 5 June belongs to 2025-05
    ['2025-06-05', 'previous', true],
    [null, 'current', false],
    [null, 'previous', true],
    ['garbage', 'previous', true],
    ['2025-06-10', 'previous', false],
    ['2025-06-10', 'all', true],
    [null, 'all', true],
  ] as const)('payment %p, filter %s → %p', (paymentDate, period, expected) => {
    expect(invoiceMatchesPeriod(paymentDate, period, '2025-06')).toBe(expected);
  });

  test('a bad current label throws', () => {
    expect(() => invoiceMatchesPeriod(null, 'current', 'June')).toThrow(/Invalid tax month label/);
  });
});

describe('statement key (spec §9)', () => {
  test.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    ['£', 'b4fe151e413445357b1c0935e7cf04a429492ebd23dc62bfadb2f898c431c1fd'], // UTF-8, two bytes
  ])('sha256(%p)', (input, hex) => {
    expect(sha256Hex(input)).toBe(hex);
  });

  test('a 1,000-byte message spans many blocks', () => {
    expect(sha256Hex('a'.repeat(1000))).toBe(
      '41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3',
    );
  });

  test('16 characters, stable, distinct per subcontractor and month', () => {
    const key = statementKey('sub-1', '2025-06');
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(statementKey('sub-1', '2025-06')).toBe(key);
    expect(statementKey('sub-1', '2025-07')).not.toBe(key);
    expect(statementKey('sub-2', '2025-06')).not.toBe(key);
    expect(key).toBe(sha256Hex('sub-1:2025-06').slice(0, 16));
  });
});
