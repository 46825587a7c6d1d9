import {
  DEFAULT_CIS_SETTINGS,
  settingsReadyIssues,
  validateInvoiceInput,
  validateSettingsInput,
  validateSubcontractorInput,
  settingsWarnings,
  subcontractorWarnings,
  type CisSettingsInput,
  type InvoiceInput,
  type SubcontractorInput,
} from '../../src/domain/index.js';

const invoice: InvoiceInput = {
  invoiceNumber: 'INV-001',
  subcontractorId: 'sub-1',
  invoiceDate: '2025-06-10',
  grossP: 100000,
  materialsP: 10000,
  vatRate: 20,
  cisRate: 20,
  materialsJustification: '',
};

describe('validateInvoiceInput (spec §5 Invoice amounts)', () => {
  test('a valid invoice has no errors', () => {
    expect(validateInvoiceInput(invoice)).toEqual({});
  });

  test.each<[string, Partial<InvoiceInput>, Record<string, string>]>([
    ['no invoice number', { invoiceNumber: '' }, { invoiceNumber: 'Valid invoice number required' }],
    ['blank invoice number', { invoiceNumber: '   ' }, { invoiceNumber: 'Valid invoice number required' }],
    [
      'missing invoice number',
      { invoiceNumber: undefined },
      { invoiceNumber: 'Valid invoice number required' },
    ],
    ['1 character', { invoiceNumber: 'A' }, {}],
    ['50 characters', { invoiceNumber: 'x'.repeat(50) }, {}],
    ['51 characters', { invoiceNumber: 'x'.repeat(51) }, { invoiceNumber: 'Valid invoice number required' }],
    ['no subcontractor', { subcontractorId: '' }, { subcontractorId: 'Subcontractor is required' }],
    ['null subcontractor', { subcontractorId: null }, { subcontractorId: 'Subcontractor is required' }],
    ['no date', { invoiceDate: '' }, { invoiceDate: 'Invoice date is required' }],
    ['impossible date', { invoiceDate: '2025-02-30' }, { invoiceDate: 'Invoice date is required' }],
    ['timestamp date', { invoiceDate: '2025-06-10T10:00:00Z' }, {}],
    [
      'negative gross',
      { grossP: -1, materialsP: 0 },
      { grossP: 'Gross amount cannot be negative', amounts: 'Amounts cannot be negative' },
    ],
    [
      'negative materials',
      { materialsP: -1 },
      { materialsP: 'Materials amount cannot be negative', amounts: 'Amounts cannot be negative' },
    ],
    ['fractional gross', { grossP: 10.5 }, { grossP: 'Invalid gross amount' }],
    ['missing gross', { grossP: undefined }, { grossP: 'Invalid gross amount' }],
    ['missing materials is 0', { materialsP: undefined }, {}],
    ['fractional materials', { materialsP: 0.5 }, { materialsP: 'Invalid materials amount' }],
    ['materials above gross', { materialsP: 100001 }, { materialsP: 'Materials cannot exceed gross amount' }],
    [
      'materials equal gross with a note',
      { materialsP: 100000, materialsJustification: 'All supplied kit' },
      {},
    ],
    ['VAT 17.5', { vatRate: 17.5 }, { vatRate: 'VAT rate must be 0%, 5%, or 20%' }],
    ['VAT missing', { vatRate: undefined }, { vatRate: 'VAT rate must be 0%, 5%, or 20%' }],
    ['VAT 0', { vatRate: 0 }, {}],
    ['VAT 5', { vatRate: 5 }, {}],
    ['CIS 25', { cisRate: 25 }, { cisRate: 'CIS rate must be 0%, 20%, or 30%' }],
    ['CIS omitted', { cisRate: undefined }, {}],
  ])('%s', (_name, override, errors) => {
    expect(validateInvoiceInput({ ...invoice, ...override })).toEqual(errors);
  });

  // One rule for both readings: ≥60 % needs a note of ≥10 characters; the message depends on the share.
  test.each([
    [59999, '', {}],
    [60000, '', { materialsJustification: 'Materials justification required when materials exceed 60%' }],
    [
      60000,
      'too short',
      { materialsJustification: 'Materials justification required when materials exceed 60%' },
    ],
    [
      60000,
      '  short   ',
      { materialsJustification: 'Materials justification required when materials exceed 60%' },
    ],
    [60000, 'ten chars!', {}],
    [79999, '', { materialsJustification: 'Materials justification required when materials exceed 60%' }],
    [
      80000,
      '',
      { materialsJustification: 'Materials ≥80% require a justification note (min 10 characters)' },
    ],
    [
      80000,
      '123456789',
      { materialsJustification: 'Materials ≥80% require a justification note (min 10 characters)' },
    ],
    [80000, 'Bulk steel supplied by subcontractor', {}],
    [
      100000,
      '',
      { materialsJustification: 'Materials ≥80% require a justification note (min 10 characters)' },
    ],
  ])('materials %i of 100000 with note %p', (materialsP, materialsJustification, errors) => {
    expect(validateInvoiceInput({ ...invoice, materialsP, materialsJustification })).toEqual(errors);
  });

  test('a zero gross needs no justification', () => {
    expect(validateInvoiceInput({ ...invoice, grossP: 0, materialsP: 0 })).toEqual({});
  });
});

const individual: SubcontractorInput = {
  type: 'individual',
  name: 'Jo Bloggs',
  utr: '5860920998',
  nino: 'AB123456C',
  email: 'jo@example.com',
  phone: '020 7946 0958',
  mobile: '07700 900123',
  registeredAddress: { line1: '1 High St', city: 'Leeds', postcode: 'LS1 1AA', country: 'GB' },
  tradingAddressSameAsRegistered: true,
  gdprConsent: true,
  verification: {
    status: 'standard',
    rate: 20,
    method: 'online',
    reference: 'V1234567890',
    notes: 'Verified by phone',
  },
};

describe('validateSubcontractorInput (spec §5 Subcontractor)', () => {
  test('a valid individual', () => {
    expect(validateSubcontractorInput(individual, 'create')).toEqual({});
    expect(validateSubcontractorInput(individual, 'edit')).toEqual({});
  });

  test.each<[string, Partial<SubcontractorInput>, 'create' | 'edit', Record<string, string>]>([
    ['name of 1 character', { name: 'J' }, 'create', { name: 'Name is required' }],
    ['name of 2 characters', { name: 'Jo' }, 'create', {}],
    ['name of 100 characters', { name: 'x'.repeat(100) }, 'create', {}],
    [
      'name of 101 characters',
      { name: 'x'.repeat(101) },
      'create',
      { name: 'Name must be 100 characters or fewer' },
    ],
    ['blank name', { name: '  ' }, 'edit', { name: 'Name is required' }],
    ['bad type', { type: 'trust' }, 'create', { type: 'Invalid subcontractor type' }],
    ['UTR missing on create', { utr: '' }, 'create', { utr: 'Valid UTR required (10 digits)' }],
    ['UTR blank on edit keeps the stored one', { utr: '' }, 'edit', {}],
    ['UTR with spaces', { utr: '58609 20998' }, 'create', {}],
    ['UTR of 9 digits', { utr: '123456789' }, 'edit', { utr: 'Valid UTR required (10 digits)' }],
    ['UTR with a bad checksum is still accepted', { utr: '1234567890' }, 'create', {}],
    ['NINO optional', { nino: '' }, 'create', {}],
    ['NINO bad', { nino: 'AB123456E' }, 'create', { nino: 'Invalid NINO format' }],
    ['NINO lower case with spaces', { nino: 'ab 12 34 56 c' }, 'create', {}],
    ['NINO ignored for a partnership', { type: 'partnership', nino: 'rubbish' }, 'create', {}],
    [
      'company without a number',
      { type: 'company', nino: '', companyNumber: '' },
      'create',
      { companyNumber: 'Valid company number required for companies' },
    ],
    ['company with a number', { type: 'company', companyNumber: 'SC123456' }, 'create', {}],
    [
      'bad company number',
      { type: 'company', companyNumber: '123' },
      'create',
      { companyNumber: 'Invalid company number' },
    ],
    [
      'partnership with a bad company number',
      { type: 'partnership', companyNumber: '123' },
      'create',
      { companyNumber: 'Invalid company number' },
    ],
    ['VAT optional', { vatNumber: '' }, 'create', {}],
    ['VAT with bad checksum is accepted', { vatNumber: 'GB123456789' }, 'create', {}],
    ['VAT bad format', { vatNumber: 'GB12345' }, 'create', { vatNumber: 'Invalid VAT number format' }],
    ['bad email', { email: 'jo@' }, 'create', { email: 'Invalid email format' }],
    ['bad phone', { phone: '12345' }, 'create', { phone: 'Invalid phone number format' }],
    ['bad mobile', { mobile: '+1 555 0100' }, 'create', { mobile: 'Invalid mobile format' }],
    [
      'no registered address on create',
      { registeredAddress: null },
      'create',
      {
        'registeredAddress.line1': 'Address line 1 is required',
        'registeredAddress.city': 'City is required',
        'registeredAddress.postcode': 'Postcode is required',
      },
    ],
    ['no registered address on edit', { registeredAddress: null }, 'edit', {}],
    [
      'country NI',
      { registeredAddress: { line1: 'a', city: 'Belfast', postcode: 'BT1 1AA', country: 'NI' } },
      'create',
      {},
    ],
    [
      'country FR',
      { registeredAddress: { line1: 'a', city: 'Paris', postcode: '75001', country: 'FR' } },
      'create',
      {
        'registeredAddress.country': 'Country must be GB or NI',
        'registeredAddress.postcode': 'Invalid UK postcode (e.g., SW1A 1AA)',
      },
    ],
    [
      'a malformed postcode (issue 13)',
      { registeredAddress: { line1: 'a', city: 'Leeds', postcode: 'LS1 1A' } },
      'create',
      { 'registeredAddress.postcode': 'Invalid UK postcode (e.g., SW1A 1AA)' },
    ],
    [
      'a malformed trading postcode on edit (issue 13)',
      { tradingAddressSameAsRegistered: false, tradingAddress: { postcode: '12345' } },
      'edit',
      { 'tradingAddress.postcode': 'Invalid UK postcode (e.g., SW1A 1AA)' },
    ],
    [
      'a postcode in any case and spacing (issue 13)',
      { registeredAddress: { line1: 'a', city: 'Leeds', postcode: ' ls11aa ' } },
      'create',
      {},
    ],
    [
      'no GDPR consent on create',
      { gdprConsent: false },
      'create',
      { gdprConsent: 'GDPR consent is required' },
    ],
    ['no GDPR consent on edit', { gdprConsent: false }, 'edit', {}],
    [
      'bad verification status',
      { verification: { status: 'net', rate: 20 } },
      'create',
      { 'verification.status': 'Invalid verification status' },
    ],
    [
      'bad verification rate',
      { verification: { status: 'standard', rate: 25 } },
      'create',
      { 'verification.rate': 'CIS rate must be 0%, 20%, or 30%' },
    ],
    [
      'rate not matching the status',
      { verification: { status: 'gross', rate: 20 } },
      'create',
      {
        'verification.rate':
          'CIS rate must match the verification status (gross 0%, standard 20%, higher 30%)',
      },
    ],
    ['gross at 0', { verification: { status: 'gross', rate: 0 } }, 'create', {}],
    [
      'higher at 30',
      { verification: { status: 'higher', rate: 30, reference: 'V1234567890AB' } },
      'create',
      {},
    ],
    [
      'bad verification method',
      { verification: { status: 'standard', rate: 20, method: 'pigeon' } },
      'create',
      { 'verification.method': 'Invalid verification method' },
    ],
    [
      'bad verification reference',
      { verification: { status: 'standard', rate: 20, reference: 'V123/45' } },
      'create',
      { 'verification.reference': 'Invalid verification number (e.g., V1234567890 or V1234567890AB)' },
    ],
    [
      'a UTR in the notes',
      { verification: { status: 'standard', rate: 20, notes: 'UTR 1234567890' } },
      'edit',
      {
        'verification.notes':
          'Must not contain a tax reference (10-digit number) or a National Insurance number',
      },
    ],
    [
      'a NINO in the notes',
      { verification: { status: 'standard', rate: 20, notes: 'ni AB 12 34 56 C' } },
      'edit',
      {
        'verification.notes':
          'Must not contain a tax reference (10-digit number) or a National Insurance number',
      },
    ],
    [
      'a NINO in the name',
      { name: 'Jo AB123456C' },
      'edit',
      { name: 'Must not contain a tax reference (10-digit number) or a National Insurance number' },
    ],
    [
      'a UTR in an address line',
      { registeredAddress: { line1: '1234567890 High St', city: 'Leeds', postcode: 'LS1 1AA' } },
      'edit',
      {
        'registeredAddress.line1':
          'Must not contain a tax reference (10-digit number) or a National Insurance number',
      },
    ],
    [
      'trading address checked when not the same',
      { tradingAddressSameAsRegistered: false, tradingAddress: { line1: 'AB123456C', country: 'US' } },
      'edit',
      {
        'tradingAddress.line1':
          'Must not contain a tax reference (10-digit number) or a National Insurance number',
        'tradingAddress.country': 'Country must be GB or NI',
      },
    ],
  ])('%s (%s)', (_name, override, mode, errors) => {
    expect(validateSubcontractorInput({ ...individual, ...override }, mode)).toEqual(errors);
  });
});

const settings: CisSettingsInput = {
  companyName: 'Acme Contractors Ltd',
  employerRef: '123/AB12345',
  accountsOfficeRef: '123PW12345678',
  utr: '2234567890',
  vatScheme: 'standard',
  warningDays: 3,
  statementDeadlineDays: 14,
  emailFrom: 'cis@acme.test',
  emailReplyTo: 'accounts@acme.test',
};

describe('validateSettingsInput (spec §5 CIS settings)', () => {
  test('valid settings and the defaults', () => {
    expect(validateSettingsInput(settings)).toEqual({});
    expect(validateSettingsInput({ ...DEFAULT_CIS_SETTINGS, companyName: 'Acme' })).toEqual({});
  });

  test.each<[string, Partial<CisSettingsInput>, Record<string, string>]>([
    ['company name of 1 character', { companyName: 'A' }, { companyName: 'Company name is required' }],
    ['company name missing', { companyName: undefined }, { companyName: 'Company name is required' }],
    ['company name of 2 characters', { companyName: 'AB' }, {}],
    ['company name of 100', { companyName: 'x'.repeat(100) }, {}],
    [
      'company name of 101',
      { companyName: 'x'.repeat(101) },
      { companyName: 'Company name must be 100 characters or fewer' },
    ],
    ['employer ref lower case', { employerRef: '123/ab12345' }, {}],
    ['employer ref long form', { employerRef: '123/ABCDE12345' }, {}],
    [
      'employer ref bad',
      { employerRef: '123-AB12345' },
      { employerRef: 'Invalid format (e.g., 123/AB12345)' },
    ],
    ['employer ref blank', { employerRef: '' }, {}],
    [
      'AO ref bad',
      { accountsOfficeRef: '123PA0001234' },
      { accountsOfficeRef: 'Invalid format (e.g., 123PA00012345)' },
    ],
    ['AO ref ending X', { accountsOfficeRef: '853PW0076584X' }, {}],
    ['AO ref example (check letter not enforced)', { accountsOfficeRef: '123PA00012345' }, {}],
    ['UTR 9 digits', { utr: '123456789' }, { utr: 'Invalid UTR format (10 digits)' }],
    ['UTR blank keeps the stored one', { utr: '' }, {}],
    ['warningDays 0', { warningDays: 0 }, {}],
    ['warningDays 30', { warningDays: 30 }, {}],
    ['warningDays 31', { warningDays: 31 }, { warningDays: 'Must be between 0 and 30 days' }],
    ['warningDays -1', { warningDays: -1 }, { warningDays: 'Must be between 0 and 30 days' }],
    ['warningDays 2.5', { warningDays: 2.5 }, { warningDays: 'Must be between 0 and 30 days' }],
    ['warningDays null', { warningDays: null }, { warningDays: 'Must be between 0 and 30 days' }],
    [
      'statementDeadlineDays 0',
      { statementDeadlineDays: 0 },
      { statementDeadlineDays: 'Must be between 1 and 30 days' },
    ],
    ['statementDeadlineDays 1', { statementDeadlineDays: 1 }, {}],
    ['statementDeadlineDays 30', { statementDeadlineDays: 30 }, {}],
    [
      'statementDeadlineDays 31',
      { statementDeadlineDays: 31 },
      { statementDeadlineDays: 'Must be between 1 and 30 days' },
    ],
    ['bad emailFrom', { emailFrom: 'nope' }, { emailFrom: 'Invalid email format' }],
    ['bad emailReplyTo', { emailReplyTo: 'a@b' }, { emailReplyTo: 'Invalid email format' }],
    ['VAT scheme flat', { vatScheme: 'flat' }, {}],
    ['VAT scheme bad', { vatScheme: 'exempt' }, { vatScheme: 'Invalid VAT scheme' }],
  ])('%s', (_name, override, errors) => {
    expect(validateSettingsInput({ ...settings, ...override })).toEqual(errors);
  });

  test('defaults (spec §3, §9)', () => {
    expect(DEFAULT_CIS_SETTINGS).toMatchObject({
      warningDays: 3,
      statementDeadlineDays: 14,
      emailStatements: true,
    });
  });
});

describe('settingsReadyIssues (service-level check)', () => {
  test.each([
    [settings, []],
    [{ ...settings, utr: '', utr_enc: 'v1:abc' }, []],
    [{ ...settings, utr: '' }, ['Contractor UTR is required']],
    [{ ...settings, utr: '12345' }, ['Invalid UTR format (10 digits)']],
    [{ ...settings, employerRef: 'x' }, ['Invalid employer reference format']],
    [{ ...settings, accountsOfficeRef: 'x' }, ['Invalid accounts office reference']],
    [
      {},
      [
        'Company name is required',
        'Employer reference is required',
        'Accounts office reference is required',
        'Contractor UTR is required',
      ],
    ],
    [
      null,
      [
        'Company name is required',
        'Employer reference is required',
        'Accounts office reference is required',
        'Contractor UTR is required',
      ],
    ],
  ])('%p → %p', (input, issues) => {
    expect(settingsReadyIssues(input)).toEqual(issues);
  });
});

describe('warnings beside the fields (issue 13; HMRC notes §1.9): the save goes ahead', () => {
  test('a subcontractor: UTR and VAT check digits, a never-issued NINO, an unusual company number', () => {
    expect(subcontractorWarnings({ ...individual, utr: '5860920998', vatNumber: 'GB930000297' })).toEqual({});
    expect(
      subcontractorWarnings({ ...individual, utr: '1234567890', vatNumber: '930000200', nino: 'GB123456A' }),
    ).toEqual({
      utr: 'This UTR fails HMRC’s check digit test: check it against HMRC’s letter, as HMRC rejects a return carrying it',
      vatNumber:
        'This VAT number fails HMRC’s check digit test: check it with the subcontractor or HMRC’s VAT number checker',
      nino: 'HMRC never issues NINOs starting GB; this one cannot be verified',
    });
    expect(subcontractorWarnings({ type: 'company', name: 'Co', companyNumber: 'XX123456' })).toHaveProperty(
      'companyNumber',
    );
    expect(validateSubcontractorInput({ ...individual, utr: '1234567890' }, 'create')).toEqual({});
  });

  test('the contractor: UTR check digit and Accounts Office check letter', () => {
    expect(settingsWarnings({ utr: '5860920998', accountsOfficeRef: '961PF10305739' })).toEqual({});
    expect(settingsWarnings({ utr: '1234567890', accountsOfficeRef: '123PA00012345' })).toEqual({
      utr: expect.stringContaining('UTR fails HMRC’s check digit') as unknown,
      accountsOfficeRef: expect.stringContaining('Accounts Office reference fails') as unknown,
    });
  });
});
