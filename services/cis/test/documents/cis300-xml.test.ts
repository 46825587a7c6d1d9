import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  Cis300ValidationError,
  buildCis300Envelope,
  buildCis300Return,
  canonicalGovTalkBody,
  computeIrMark,
  splitEmployerRef,
  splitPersonName,
  toPayeString,
  type Cis300Line,
  type Cis300ReturnInput,
} from '../../src/documents/cis300-xml.js';

const XSD = join(process.cwd(), 'services', 'cis', 'xsd', 'CISreturn-v1-2.xsd');
const FIXTURES = join(process.cwd(), 'services', 'cis', 'test', 'documents', 'fixtures');

function xmllintAvailable(): boolean {
  return spawnSync('xmllint', ['--version'], { stdio: 'ignore' }).status === 0;
}

let workDir = '';
beforeAll(() => {
  if (!xmllintAvailable()) {
    throw new Error(
      'xmllint is missing: the CIS300 schema tests need it. Run `bash deploy/local/system-packages.sh` ' +
        '(installs Debian package libxml2-utils).',
    );
  }
  workDir = mkdtempSync(join(tmpdir(), 'cis300-'));
});
afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** Runs xmllint against HMRC's XSD; returns '' when valid, else xmllint's messages. */
function schemaErrors(xml: string, name: string): string {
  const file = join(workDir, `${name}.xml`);
  writeFileSync(file, xml);
  const result = spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8' });
  return result.status === 0 ? '' : `${result.stderr}${result.stdout}`;
}

/** The IRenvelope of a GovTalk message as a standalone document (it declares its own namespace). */
function irEnvelopeOf(message: string): string {
  const start = message.indexOf('<IRenvelope');
  const end = message.indexOf('</IRenvelope>') + '</IRenvelope>'.length;
  return message.slice(start, end);
}

const individual: Cis300Line = {
  name: 'John Smith',
  type: 'individual',
  utr: '2234567890',
  nino: 'AB 12 34 56 C',
  unmatchedRate: false,
  totalPaymentsP: 256799, // £2,567.99 → 2567.00 (HMRC worked example, CISR61230)
  costOfMaterialsP: 36799, // £367.99 → 367.00
  totalDeductedP: 44000, // £440.00
};
const company: Cis300Line = {
  name: 'Smith & Sons (Building) Ltd',
  type: 'company',
  utr: '3234567890',
  crn: 'SC123456',
  unmatchedRate: false,
  totalPaymentsP: 1_000_000,
  costOfMaterialsP: 250_000,
  totalDeductedP: 0, // gross payment status
};
const unmatched: Cis300Line = {
  name: 'Zoë O’Brien',
  type: 'individual',
  utr: null,
  verificationNumber: 'V1234567890AB',
  unmatchedRate: true,
  totalPaymentsP: 50_050,
  costOfMaterialsP: 5_010,
  totalDeductedP: 13_512,
};

function input(overrides: Partial<Cis300ReturnInput> = {}): Cis300ReturnInput {
  return {
    contractor: { utr: '1234567890', accountsOfficeRef: '123PA00012345', employerRef: '123/AB12345' },
    periodEnd: '2026-01-05',
    nil: false,
    lines: [individual, company, unmatched],
    declarations: { employmentStatus: true, verification: true, informationCorrect: true },
    ...overrides,
  };
}

function subcontractorBlocks(xml: string): string[] {
  return xml.match(/<Subcontractor>[\s\S]*?<\/Subcontractor>/g) ?? [];
}

describe('buildCis300Return', () => {
  it('builds a standard return with three lines that is valid against HMRC’s CISreturn-v1-2.xsd', () => {
    const xml = buildCis300Return(input());
    expect(schemaErrors(xml, 'standard')).toBe('');
    expect(xml).toContain('<IRenvelope xmlns="http://www.govtalk.gov.uk/taxation/CISreturn">');
    expect(xml).toContain('<PeriodEnd>2026-01-05</PeriodEnd>');
    expect(xml).toContain('<Key Type="TaxOfficeNumber">123</Key>');
    expect(xml).toContain('<Key Type="TaxOfficeReference">AB12345</Key>');
    expect(xml).toContain('<DefaultCurrency>GBP</DefaultCurrency>');
    expect(xml).toContain('<SchemaVersion>2005-v1.1</SchemaVersion>');
    expect(xml).toContain('<UTR>1234567890</UTR>');
    expect(xml).toContain('<AOref>123PA00012345</AOref>');
    expect(xml).not.toContain('NilReturn');
    expect(xml).not.toContain('IRmark');

    const [first, second, third] = subcontractorBlocks(xml);
    // individual at 20 %: structured name, UTR, NINO normalised, no UnmatchedRate, no verification number
    expect(first).toContain('<Fore>John</Fore>');
    expect(first).toContain('<Sur>Smith</Sur>');
    expect(first).toContain('<NINO>AB123456C</NINO>');
    expect(first).not.toContain('UnmatchedRate');
    expect(first).not.toContain('CRN');
    // company with gross status: trading name, CRN, no NINO, 0.00 deducted
    expect(second).toContain('<TradingName>Smith &amp; Sons (Building) Ltd</TradingName>');
    expect(second).toContain('<CRN>SC123456</CRN>');
    expect(second).toContain('<TotalPayments>10000.00</TotalPayments>');
    expect(second).toContain('<TotalDeducted>0.00</TotalDeducted>');
    // unmatched at 30 %: UnmatchedRate and the verification number, transliterated name
    expect(third).toContain('<UnmatchedRate>yes</UnmatchedRate>');
    expect(third).toContain('<VerificationNumber>V1234567890AB</VerificationNumber>');
    expect(third).toContain('<Fore>Zoe</Fore>');
    expect(third).toContain("<Sur>O'Brien</Sur>");
    expect(third).toContain('<TotalPayments>500.00</TotalPayments>');
    expect(third).toContain('<CostOfMaterials>50.00</CostOfMaterials>');
    expect(third).toContain('<TotalDeducted>135.12</TotalDeducted>');

    expect(xml).toMatch(
      /<Declarations>\s*<EmploymentStatus>yes<\/EmploymentStatus>\s*<Verification>yes<\/Verification>\s*<InformationCorrect>yes<\/InformationCorrect>\s*<\/Declarations>/,
    );
  });

  it('writes HMRC’s worked example as 2567.00 / 367.00 / 440.00 (payments and materials rounded down)', () => {
    const xml = buildCis300Return(input({ lines: [individual] }));
    const [line] = subcontractorBlocks(xml);
    expect(line).toContain('<TotalPayments>2567.00</TotalPayments>');
    expect(line).toContain('<CostOfMaterials>367.00</CostOfMaterials>');
    expect(line).toContain('<TotalDeducted>440.00</TotalDeducted>');
    expect(schemaErrors(xml, 'worked-example')).toBe('');
  });

  it('builds a nil return (NilReturn=yes, only InformationCorrect and Inactivity) that is schema-valid', () => {
    const xml = buildCis300Return(
      input({
        nil: true,
        inactivity: true,
        lines: [],
        declarations: { employmentStatus: false, verification: false, informationCorrect: true },
      }),
    );
    expect(schemaErrors(xml, 'nil')).toBe('');
    expect(xml).toContain('<NilReturn>yes</NilReturn>');
    expect(xml).not.toContain('<Subcontractor>');
    expect(xml).not.toContain('EmploymentStatus');
    expect(xml).toMatch(
      /<Declarations>\s*<InformationCorrect>yes<\/InformationCorrect>\s*<Inactivity>yes<\/Inactivity>\s*<\/Declarations>/,
    );
  });

  it('escapes & and < in names and keeps the result schema-valid', () => {
    const xml = buildCis300Return(
      input({
        lines: [
          { ...company, name: 'Bricks & Mortar <North> Ltd', crn: '01234567' },
          { ...individual, name: 'Mr Tom & Jerry Brown' },
        ],
      }),
    );
    expect(xml).toContain('<TradingName>Bricks &amp; Mortar &lt;North&gt; Ltd</TradingName>');
    expect(xml).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
    expect(schemaErrors(xml, 'escaping')).toBe('');
  });

  it('keeps names inside HMRC’s lengths and character sets', () => {
    const long = 'The Extremely Long Named Construction & Civil Engineering Partnership of Yorkshire';
    const xml = buildCis300Return(
      input({
        lines: [
          { ...company, type: 'partnership', name: long, crn: null, nino: 'AB123456' },
          { ...individual, name: 'Dr. José María Fernández-López' },
          { ...individual, name: 'Cher' }, // one word: sent as TradingName
          { ...individual, name: 'Ann | Lee ★' },
        ],
      }),
    );
    expect(schemaErrors(xml, 'names')).toBe('');
    const [partnership, jose, cher, ann] = subcontractorBlocks(xml);
    const tradingName = /<TradingName>(.*)<\/TradingName>/.exec(partnership ?? '')?.[1] ?? '';
    expect(tradingName.replace(/&amp;/g, '&').length).toBeLessThanOrEqual(56);
    expect(partnership).toContain('<NINO>AB123456 </NINO>'); // no suffix letter → a space, as the XSD allows
    expect(jose).toContain('<Ttl>Dr</Ttl>');
    expect(jose).toContain('<Fore>Jose</Fore>');
    expect(jose).toContain('<Fore>Maria</Fore>');
    expect(jose).toContain('<Sur>Fernandez-Lopez</Sur>');
    expect(cher).toContain('<TradingName>Cher</TradingName>');
    expect(ann).toContain('<Sur>Lee</Sur>');
  });

  it('refuses input that cannot be made valid, listing every issue', () => {
    let error: unknown;
    try {
      buildCis300Return(
        input({
          contractor: { utr: '123', accountsOfficeRef: '123/AB', employerRef: null },
          periodEnd: '2026-01-06',
          lines: [
            { ...individual, nino: 'QQ123456Z' },
            { ...company, crn: 'R0123456' },
            { ...unmatched, verificationNumber: 'V12345/67890' },
            { ...individual, totalPaymentsP: 100, costOfMaterialsP: 200 },
            { ...individual, totalDeductedP: -1 },
          ],
        }),
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Cis300ValidationError);
    const issues = (error as Cis300ValidationError).issues;
    expect(issues).toEqual(
      expect.arrayContaining([
        'Contractor UTR must be 10 digits',
        'Invalid accounts office reference (e.g. 123PA00012345)',
        'Invalid period end 2026-01-06 (expected YYYY-MM-05)',
        'Line 1: invalid National Insurance number',
        'Line 2: invalid company registration number for HMRC (R0123456)',
        'Line 3: invalid verification number (V, 10 digits, up to 2 letters)',
        'Line 4: Materials exceed gross amount',
      ]),
    );
    expect(issues.some((issue) => issue.startsWith('Line 5:'))).toBe(true);
  });

  it('refuses a nil return with lines and a standard return without', () => {
    expect(() => buildCis300Return(input({ nil: true }))).toThrow(
      'A nil return cannot have subcontractor lines',
    );
    expect(() => buildCis300Return(input({ lines: [] }))).toThrow(
      'Return must have at least one line or be marked as nil',
    );
  });
});

describe('IRmark', () => {
  it('reproduces HMRC’s own IRmark test vector (IrMarkGeneratorSpec)', () => {
    const xml = readFileSync(join(FIXTURES, 'hmrc-valid-cis-return-envelope.xml'), 'utf8');
    expect(computeIrMark(xml)).toBe('j1Ap+GqVf7bJwdgOfj+p3dhnG8g=');
  });

  it('canonicalises the Body: namespace on Body, empty elements expanded, IRmark left out', () => {
    const xml = readFileSync(join(FIXTURES, 'hmrc-valid-cis-return-envelope.xml'), 'utf8');
    const canonical = canonicalGovTalkBody(xml);
    expect(canonical.startsWith('<Body xmlns="http://www.govtalk.gov.uk/CM/envelope">')).toBe(true);
    expect(canonical).toContain('<IRenvelope xmlns="http://www.govtalk.gov.uk/taxation/CISreturn">');
    expect(canonical).not.toContain('IRmark');
    expect(canonical.endsWith('</Body>')).toBe(true);
  });

  it('does not depend on the IRmark value already present', () => {
    const xml = readFileSync(join(FIXTURES, 'hmrc-valid-cis-return-envelope.xml'), 'utf8');
    const marked = xml.replace('<IRmark Type="generic"/>', '<IRmark Type="generic">abc=</IRmark>');
    expect(computeIrMark(marked)).toBe('j1Ap+GqVf7bJwdgOfj+p3dhnG8g=');
  });
});

describe('buildCis300Envelope', () => {
  it('wraps the return in a GovTalk message with keys and a correct IRmark; the IRenvelope is schema-valid', () => {
    const message = buildCis300Envelope({
      ...input(),
      ...splitEmployerRef('123/AB12345'),
      channel: { uri: '9999', product: 'Workspace CIS', version: '1.0' },
    });
    expect(message).toContain('<GovTalkMessage xmlns="http://www.govtalk.gov.uk/CM/envelope">');
    expect(message).toContain('<Class>IR-CIS-CIS300MR</Class>');
    expect(message).toContain('<Qualifier>request</Qualifier>');
    expect(message).toContain('<Function>submit</Function>');
    expect(message).toContain('<Organisation>IR</Organisation>');
    expect(message).toContain('<Product>Workspace CIS</Product>');
    expect(message.match(/<Key Type="TaxOfficeNumber">123<\/Key>/g)).toHaveLength(2);
    expect(message.match(/<Key Type="TaxOfficeReference">AB12345<\/Key>/g)).toHaveLength(2);

    const mark = /<IRmark Type="generic">([^<]+)<\/IRmark>/.exec(message)?.[1];
    expect(mark).toMatch(/^[A-Za-z0-9+/]{27}=$/);
    expect(computeIrMark(message)).toBe(mark);
    expect(schemaErrors(irEnvelopeOf(message), 'envelope-body')).toBe('');
  });

  it('takes the keys from the employer reference, and the IRmark changes with the content', () => {
    const a = buildCis300Envelope(input());
    const b = buildCis300Envelope(input({ lines: [individual] }));
    const markOf = (xml: string): string | undefined => /<IRmark Type="generic">([^<]+)</.exec(xml)?.[1];
    expect(a).toContain('<Key Type="TaxOfficeReference">AB12345</Key>');
    expect(markOf(a)).not.toBe(markOf(b));
    expect(buildCis300Envelope(input())).toBe(a); // deterministic
  });

  it('builds a nil-return envelope that is schema-valid', () => {
    const message = buildCis300Envelope(
      input({ nil: true, lines: [], inactivity: false, contractor: { ...input().contractor } }),
    );
    expect(message).toContain('<NilReturn>yes</NilReturn>');
    expect(schemaErrors(irEnvelopeOf(message), 'nil-envelope')).toBe('');
  });

  it('needs the tax office keys', () => {
    expect(() =>
      buildCis300Envelope(input({ contractor: { utr: '1234567890', accountsOfficeRef: '123PA00012345' } })),
    ).toThrow(Cis300ValidationError);
  });

  it('validates with xmllint from the command line too (the check the brief describes)', () => {
    const file = join(workDir, 'cli.xml');
    writeFileSync(file, buildCis300Return(input()));
    expect(() =>
      execFileSync('xmllint', ['--noout', '--schema', XSD, file], { stdio: 'pipe' }),
    ).not.toThrow();
  });
});

describe('helpers', () => {
  it('splits names into HMRC’s NameStructure', () => {
    expect(splitPersonName('John Smith')).toEqual({ forenames: ['John'], surname: 'Smith' });
    expect(splitPersonName('Mrs Mary Ann Jane Jones')).toEqual({
      title: 'Mrs',
      forenames: ['Mary', 'Ann'],
      surname: 'Jones',
    });
    expect(splitPersonName('Pieter van der Berg')).toEqual({
      forenames: ['Pieter'],
      surname: 'van der Berg',
    });
    expect(splitPersonName('Madonna')).toBeNull();
  });

  it('maps text into the PAYE character set', () => {
    expect(toPayeString('  Café “Élan” – Builders | Ltd  ', 56)).toBe('Cafe "Elan" - Builders Ltd');
    expect(toPayeString('x'.repeat(80), 56)).toHaveLength(56);
  });

  it('splits the employer reference', () => {
    expect(splitEmployerRef('123/AB12345')).toEqual({
      taxOfficeNumber: '123',
      taxOfficeReference: 'AB12345',
    });
    expect(() => splitEmployerRef('12/AB')).toThrow(Cis300ValidationError);
  });
});
