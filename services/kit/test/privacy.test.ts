import { Writable } from 'node:stream';
import * as cis from '@workspace/cis/domain';
import {
  assertPlainText,
  containsSensitiveIdentifier,
  createLogger,
  findSensitiveFields,
  findSensitiveIdentifiers,
  maskEmail,
  maskLogLine,
  maskNino,
  maskPhone,
  maskSensitiveIdentifiers,
  maskTaxReference,
  SensitiveTextError,
} from '../src/index.js';

const refusal = (text: string, field?: string): unknown => {
  try {
    assertPlainText(text, field);
    return undefined;
  } catch (error) {
    return error;
  }
};

describe('plain text rule', () => {
  it("refuses a 10-digit number: '0123456789'", () => {
    const error = refusal('0123456789', 'notes');
    expect(error).toBeInstanceOf(SensitiveTextError);
    expect((error as SensitiveTextError).status).toBe(400);
    expect((error as SensitiveTextError).errors).toEqual([
      {
        field: 'notes',
        message: 'Must not contain a tax reference (10-digit number) or a National Insurance number',
      },
    ]);
    // The refusal never repeats the value.
    expect(JSON.stringify((error as SensitiveTextError).toDocument())).not.toContain('0123456789');
    expect(refusal('Paid to UTR 0123456789 on Friday')).toBeInstanceOf(SensitiveTextError);
    expect(findSensitiveIdentifiers('ref 0123456789.')).toEqual([
      { kind: 'tax-reference', index: 4, length: 10 },
    ]);
  });

  it('finds a UTR written in the two groups of five HMRC prints, and masks it in logs', () => {
    for (const text of ['UTR 12345 67890', 'utr: 12345-67890.']) {
      expect(refusal(text)).toBeInstanceOf(SensitiveTextError);
      expect(maskSensitiveIdentifiers(text)).not.toMatch(/12345/);
      expect(maskSensitiveIdentifiers(text)).toContain('7890');
    }
    // Groups that are not 5 and 5 are not a UTR: a mobile number, an 11-digit landline.
    for (const text of ['Call 07700 900123', 'Tel 01234 567890', '1234 567890']) {
      expect(refusal(text)).toBeUndefined();
    }
  });

  it('allows numbers that are not 10 digits long, and dates, amounts and phone numbers', () => {
    for (const text of [
      '123456789',
      '01234567890',
      'Invoice INV-000123 for £1,234,567.89',
      'Call 07700 900123',
      '2026-11-23T09:33:49.123Z',
      '',
    ]) {
      expect(refusal(text)).toBeUndefined();
    }
  });

  it('refuses a national-insurance pattern, in any case and with spaces', () => {
    for (const text of ['AB123456C', 'NI: ab 12 34 56 c', 'his number is JG103759A.']) {
      expect(refusal(text)).toBeInstanceOf(SensitiveTextError);
      expect(findSensitiveIdentifiers(text)).toEqual([
        expect.objectContaining({ kind: 'national-insurance-number' }),
      ]);
    }
    // Not NI-shaped: prefix letters HMRC never uses, a suffix beyond D, glued to other characters, too short.
    for (const text of ['DA123456C', 'AB123456E', 'XAB123456C', 'AB12345C']) {
      expect(refusal(text)).toBeUndefined();
    }
  });

  it('does not take UUIDs or hex ids for tax references, even with ten digits in a row', () => {
    for (const text of [
      '0f8e2a1b-3c4d-4e5f-8a9b-a1234567890b',
      'trace 4bf92f3577b34da6a3ce929d0e0e4736 span a0123456789bcdef',
      'invoice 5a9e0c1d-2b3f-4a5c-9d8e-7f6a5b4c3d2e',
    ]) {
      expect(containsSensitiveIdentifier(text)).toBe(false);
    }
    // A ten-digit number beside an id is still found.
    expect(containsSensitiveIdentifier('0f8e2a1b-3c4d-4e5f-8a9b-a1234567890b 1234567890')).toBe(true);
  });

  it('agrees with the CIS forms’ rule (containsPii) on plain text', () => {
    for (const text of [
      '0123456789',
      'UTR1234567890',
      'ab 12 34 56 c',
      'AB123456C',
      'QQ123456C',
      'DA123456C',
      '123456789',
      '12345678901',
      'Flat 2, 10 High Street',
      'Verified by phone, ref V1234567890',
    ]) {
      expect(containsSensitiveIdentifier(text)).toBe(cis.containsPii(text));
    }
  });

  it('finds the fields of a structured value that hold one (numbers are not text)', () => {
    expect(
      findSensitiveFields({
        $typeName: 'x.v1.Message',
        id: '5a9e0c1d-2b3f-4a5c-9d8e-7f6a5b4c3d2e',
        name: 'Acme',
        notes: ['fine', 'NINO AB123456C'],
        nested: { reference: 'UTR 1234567890', amountP: 1234567890, big: 1234567890n },
      }),
    ).toEqual(['notes[1]', 'nested.reference']);
  });

  it('masks each identifier in a text with its display mask', () => {
    expect(maskSensitiveIdentifiers('UTR 1234567890 and NINO AB123456C.')).toBe(
      'UTR ******7890 and NINO AB******C.',
    );
    expect(maskSensitiveIdentifiers('nothing here')).toBe('nothing here');
  });
});

describe('masking for display', () => {
  it('a tax reference shows its last 4 digits: 1234567890 → ******7890', () => {
    expect(maskTaxReference('1234567890')).toBe('******7890');
    expect(maskTaxReference('12345 67890')).toBe('******7890');
    expect(maskTaxReference('123')).toBe('***');
    expect(maskTaxReference(null)).toBe('');
  });

  it('a national insurance number shows the first 2 and last 1 characters: AB123456C → AB…C', () => {
    expect(maskNino('AB123456C')).toBe('AB******C');
    expect(maskNino('ab 12 34 56 c')).toBe('AB******C');
    expect(maskNino('AB1')).toBe('***');
    expect(maskNino(undefined)).toBe('');
  });

  it('email and phone are partly masked', () => {
    expect(maskEmail('john.smith@example.com')).toBe('j***@example.com');
    expect(maskEmail('no-at-sign')).toBe('***');
    expect(maskEmail('')).toBe('');
    expect(maskPhone('07700 900123')).toBe('********123');
    expect(maskPhone('+44 (0)7700-900123')).toBe('+**********123');
    expect(maskPhone('12')).toBe('**');
  });

  it('gives the same output as the CIS domain’s maskUtr, maskNino, maskEmail and maskPhone', () => {
    const inputs = [
      '1234567890',
      ' 12345 67890 ',
      'AB123456C',
      'ab 12 34 56 c',
      'j@x.io',
      'john.smith@example.com',
      '@example.com',
      '07700 900123',
      '+44 7700 900123',
      '(020) 7946-0018',
      '',
      'ab',
      null,
      undefined,
    ];
    for (const input of inputs) {
      expect(maskTaxReference(input)).toBe(cis.maskUtr(input));
      expect(maskNino(input)).toBe(cis.maskNino(input));
      expect(maskEmail(input)).toBe(cis.maskEmail(input));
      expect(maskPhone(input)).toBe(cis.maskPhone(input));
    }
  });
});

describe('logger masks identifiers in text', () => {
  it('masks a UTR or NINO in the message and in fields the redaction paths do not name', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger({ name: 'test' }, sink);
    logger.info(
      {
        detail: 'subcontractor 1234567890 rejected',
        nested: { note: 'NI ab123456c' },
        eventId: '0f8e2a1b-3c4d-4e5f-8a9b-a1234567890b',
        epochSeconds: 1763890429,
      },
      'lookup for AB123456C failed',
    );
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(line).toMatchObject({
      msg: 'lookup for AB******C failed',
      detail: 'subcontractor ******7890 rejected',
      nested: { note: 'NI AB******C' },
      eventId: '0f8e2a1b-3c4d-4e5f-8a9b-a1234567890b',
      epochSeconds: 1763890429,
    });
    expect(lines[0]).not.toMatch(/subcontractor 1234567890|123456C/i);
  });

  it('keeps the line valid JSON when strings hold quotes and escapes', () => {
    const line = '{"msg":"said \\"0123456789\\" twice\\n0123456789","n":1}';
    expect(JSON.parse(maskLogLine(line))).toEqual({ msg: 'said "******6789" twice\n******6789', n: 1 });
  });
});
