import {
  accountsOfficeCheckValid,
  containsPii,
  utrChecksumValid,
  validateAccountsOfficeRef,
  validateCompanyNumber,
  validateEmail,
  validateEmployerRef,
  validateNino,
  validatePhone,
  validateUtr,
  validateVatNumber,
  validateVerificationNumber,
  vatChecksumValid,
} from '../../src/domain/index.js';

describe('validateUtr (spec §5; checksum from hmrc/reference-checker and hmrc/cis-contractor-frontend)', () => {
  // HMRC's own valid cases: ModulusCheckerSpec (SA and CT) and cis-contractor-frontend UTRSpec.
  test.each([
    ['2234567890K', '2234567890'],
    ['2108834503K', '2108834503'],
    ['1097172564K', '1097172564'],
    ['2234567890', '2234567890'],
    ['K2234567890', '2234567890'],
    ['1097172564k', '1097172564'],
    ['k1097172564', '1097172564'],
    ['2108834503', '2108834503'],
    ['5860920998', '5860920998'],
    ['58609 20998', '5860920998'],
    [' 5860 920 998 ', '5860920998'],
  ])('HMRC valid %p → %s, checksum valid', (input, normalised) => {
    expect(validateUtr(input)).toEqual({ valid: true, normalised, error: null, checksumValid: true });
  });

  // Ten digits but HMRC's check digit fails: valid per the spec, checksumValid false.
  test.each([['1234567890K'], ['5550000621'], ['1234567890']])(
    'ten digits with a bad check digit %p: valid, checksumValid false',
    (input) => {
      const r = validateUtr(input);
      expect(r.valid).toBe(true);
      expect(r.checksumValid).toBe(false);
    },
  );

  // HMRC's invalid cases that fail the format.
  test.each([
    [''],
    ['123456'],
    ['inv@lid123K'],
    ['1nv@l-d~&*!'],
    ['1234567890E'],
    ['12345678905'],
    ['1097172564KZ'],
    ['123456789'],
    ['12345A7890'],
    ['K1234567890K'],
  ])('HMRC invalid %p → error', (input) => {
    const r = validateUtr(input);
    expect(r.valid).toBe(false);
    expect(r.error).toBe('Valid UTR required (10 digits)');
    expect(r.checksumValid).toBe(false);
  });

  test('the check table: remainder 0 → 2, 1 → 1, 2 → 9 …', () => {
    // digits 2-10 all zero: sum 0, remainder 0, check digit 2
    expect(utrChecksumValid('2000000000')).toBe(true);
    expect(utrChecksumValid('1000000000')).toBe(false);
    expect(utrChecksumValid('abc')).toBe(false);
  });
});

describe('validateNino (spec §5; hmrc/domain Nino.scala and NinoSpec)', () => {
  test.each([
    ['AB123456C', 'AB123456C'],
    ['AB 12 34 56 C', 'AB123456C'],
    [' AB123456C', 'AB123456C'], // HMRC's library refuses the outer space; we strip spaces (spec)
    ['ab123456c', 'AB123456C'], // uppercased (spec; HMRC's new UI does the same)
    ['CS100700A', 'CS100700A'],
    ['AA111111A', 'AA111111A'],
    ['JG103759A', 'JG103759A'],
    ['ZY999999D', 'ZY999999D'],
  ])('valid %p → %s', (input, normalised) => {
    expect(validateNino(input)).toEqual({
      valid: true,
      normalised,
      error: null,
      warning: null,
      temporary: false,
    });
  });

  test.each([
    [''],
    ['    '],
    ['XXX'],
    ['werionownadefwe'],
    ['@£%!)(*&^'],
    ['123456'],
    ['A123456C'],
    ['A1234567C'],
    ['ABC12345C'],
    ['ABC123456C'],
    ['AB12345C'],
    ['AB1234567C'],
    ['AO123456C'], // second letter O
    ['AB123456E'], // suffix E
    ['AB123456'], // no suffix
  ])('invalid %p', (input) => {
    const r = validateNino(input);
    expect(r.valid).toBe(false);
    expect(r.error).toBe('Invalid NINO format');
  });

  test.each(['D', 'F', 'I', 'Q', 'U', 'V'])('first letter %s is refused', (letter) => {
    expect(validateNino(`${letter}A123456A`).valid).toBe(false);
  });

  test.each(['D', 'F', 'I', 'O', 'Q', 'U', 'V'])('second letter %s is refused', (letter) => {
    expect(validateNino(`A${letter}123456A`).valid).toBe(false);
  });

  test.each(['A', 'B', 'C', 'D'])('suffix %s is accepted', (suffix) => {
    expect(validateNino(`AB123456${suffix}`).valid).toBe(true);
  });

  test.each(['BG', 'GB', 'KN', 'NK', 'NT', 'ZZ'])(
    'prefix %s: format valid, warned as never issued',
    (prefix) => {
      const r = validateNino(`${prefix}123456C`);
      expect(r.valid).toBe(true);
      expect(r.temporary).toBe(false);
      expect(r.warning).toBe(`HMRC never issues NINOs starting ${prefix}; this one cannot be verified`);
    },
  );

  test.each([
    ['TN123456A', true],
    ['TN 01 02 83 M', false], // the old temporary number: TN + date of birth + M/F
    ['TN010283F', false],
  ])('temporary %p: valid %p, warned', (input, valid) => {
    const r = validateNino(input);
    expect(r.valid).toBe(valid);
    expect(r.temporary).toBe(true);
    expect(r.warning).toMatch(/temporary reference number \(starting TN\), which HMRC cannot verify/);
  });
});

describe('validateCompanyNumber (spec §5; Companies House patterns)', () => {
  test.each([
    ['12345678', null],
    ['01234567', null],
    ['SC123456', null],
    ['sc 123456', null],
    ['NI012345', null],
    ['OC301234', null],
    ['R0123456', null],
    ['AB123456', 'warn'],
    ['1234567A', 'warn'],
  ])('valid %p (warning: %p)', (input, warning) => {
    const r = validateCompanyNumber(input);
    expect(r.valid).toBe(true);
    expect(r.error).toBeNull();
    expect(r.warning === null ? null : 'warn').toBe(warning);
  });

  test.each([[''], ['1234567'], ['123456789'], ['SC12345!'], ['SC-12345']])('invalid %p', (input) => {
    expect(validateCompanyNumber(input)).toMatchObject({ valid: false, error: 'Invalid company number' });
  });
});

describe('validateVatNumber (spec §5; hmrc/agent-mtd-identifiers VrnValidationSpec, reference-checker)', () => {
  test.each([
    ['101747696', '101747696', true], // mod-97
    ['101747641', '101747641', true], // mod-9755
    ['000000097', '000000097', true], // reference-checker valid case
    ['GB101747696', '101747696', true],
    ['gb 101 7476 96', '101747696', true],
    ['GB101747696001', '101747696001', true], // 12-digit branch: the first 9 are checked
    ['123456789', '123456789', false], // reference-checker invalid case: format fine, checksum fails
    ['101747691', '101747691', false], // VrnValidationSpec: fails both mods
  ])('%p → %s, checksum %p (never enforced)', (input, normalised, checksumValid) => {
    expect(validateVatNumber(input)).toEqual({ valid: true, normalised, error: null, checksumValid });
  });

  test.each([[''], ['123456'], ['123abc789'], ['GB1234567890'], ['GD001'], ['HA500'], ['XI101747696']])(
    'invalid %p',
    (input) => {
      expect(validateVatNumber(input)).toMatchObject({
        valid: false,
        error: 'Invalid VAT number format',
        checksumValid: false,
      });
    },
  );

  test('remainder 0 counts as 97 (agent-mtd-identifiers calcCheckSum97)', () => {
    // 9×8 + 3×7 + 2×2 = 97: mod-97 wants '97' here (reference-checker would want '00').
    expect(vatChecksumValid('930000297')).toBe(true);
    expect(vatChecksumValid('930000200')).toBe(false);
  });
});

describe('validateEmployerRef (spec §5, one rule for both readings)', () => {
  test.each([
    ['123/AB12345', '123/AB12345'],
    ['123/ab12345', '123/AB12345'],
    [' 123/AB56797 ', '123/AB56797'],
    ['123/A1', '123/A1'],
    ['123/12', '123/12'],
    ['123/ABCDEFGHIJ', '123/ABCDEFGHIJ'],
  ])('valid %p → %s', (input, normalised) => {
    expect(validateEmployerRef(input)).toEqual({ valid: true, normalised, error: null });
  });

  test.each([
    ['123/A'],
    ['123/ABCDEFGHIJK'],
    ['12/AB12345'],
    ['1234/AB12345'],
    ['123AB12345'],
    ['123/AB 12345'],
    [''],
  ])('invalid %p', (input) => {
    expect(validateEmployerRef(input)).toMatchObject({
      valid: false,
      error: 'Invalid format (e.g., 123/AB12345)',
    });
  });
});

describe('validateAccountsOfficeRef (hmrc/reference-checker EpayeReferenceChecker and its spec)', () => {
  test.each([
    ['123PW12345678'],
    ['450PE00923437'],
    ['120PY19064375'],
    ['450PA0096437K'],
    ['853PW0076584X'],
    ['846PS00928342'],
    ['961PA0045782X'],
    ['961PF10305739'],
    ['123PH45678900'],
  ])('HMRC valid %s: format and check letter valid', (ref) => {
    expect(validateAccountsOfficeRef(ref)).toEqual({
      valid: true,
      normalised: ref,
      error: null,
      checkCharacterValid: true,
    });
  });

  test.each([
    ['000PL00000000'],
    ['120PA12697495'],
    ['846PT00568772'],
    ['820PB0091254X'],
    ['961PI004578OQ'],
    ['961PA1145782X'], // 961 office ending X needs a 0 in position 6
    ['961PL004578FQ'], // 961 office not ending X must be all digits
    ['123PA00012345'], // the spec's example: right shape, wrong check letter
  ])('HMRC invalid %s: right shape, check fails', (ref) => {
    expect(validateAccountsOfficeRef(ref)).toMatchObject({ valid: true, checkCharacterValid: false });
    expect(accountsOfficeCheckValid(ref)).toBe(false);
  });

  test.each([
    [''],
    ['1234'],
    ['123PW12345678Z'],
    ['8465L04697138'],
    ['120PW003179212324'],
    ['120PW0024'],
    ['123XH4!@£900'],
  ])('HMRC invalid %p: wrong shape', (ref) => {
    expect(validateAccountsOfficeRef(ref)).toEqual({
      valid: false,
      normalised: ref.replace(/\s+/g, '').toUpperCase(),
      error: 'Invalid format (e.g., 123PA00012345)',
      checkCharacterValid: false,
    });
  });

  test('lower case and spaces are normalised', () => {
    expect(validateAccountsOfficeRef(' 123pw 1234 5678 ')).toMatchObject({
      valid: true,
      normalised: '123PW12345678',
      checkCharacterValid: true,
    });
  });
});

describe('validateVerificationNumber (CISverification XSD V[0-9]{10}[A-HJ-NP-Z]{0,2})', () => {
  test.each([
    ['V1234567890', 'V1234567890', false],
    ['v1234567890a', 'V1234567890A', true],
    ['V1234567890AB', 'V1234567890AB', true],
    ['V 12345 67890 ZZ', 'V1234567890ZZ', true],
  ])('valid %p → %s (unmatched %p)', (input, normalised, unmatched) => {
    expect(validateVerificationNumber(input)).toEqual({ valid: true, normalised, error: null, unmatched });
  });

  test.each([
    [''],
    ['V123456789'],
    ['V12345678901'],
    ['1234567890'],
    ['V1234567890I'],
    ['V1234567890O'],
    ['V1234567890ABC'],
    ['V1234567890/A'],
  ])('invalid %p', (input) => {
    expect(validateVerificationNumber(input)).toMatchObject({
      valid: false,
      error: 'Invalid verification number (e.g., V1234567890 or V1234567890AB)',
    });
  });
});

describe('validateEmail and validatePhone (spec §5)', () => {
  test.each([
    ['a@b.co', true],
    ['john.smith@example.co.uk', true],
    [' john@example.com ', true],
    ['john@example', false],
    ['john@@example.com', false],
    ['john example@x.com', false],
    ['@example.com', false],
    ['', false],
  ])('email %p valid %p', (input, valid) => {
    const r = validateEmail(input);
    expect(r.valid).toBe(valid);
    expect(r.error).toBe(valid ? null : 'Invalid email format');
  });

  test.each([
    ['+44 20 7946 0958', '+442079460958'],
    ['0044 20 7946 0958', '00442079460958'],
    ['020 7946 0958', '02079460958'],
    ['(020) 7946-0958', '02079460958'],
    ['07700 900123', '07700900123'],
    ['+447700900123', '+447700900123'],
    ['01234 56789', '0123456789'], // 0 then 9 digits
  ])('phone %p valid → %s', (input, normalised) => {
    expect(validatePhone(input)).toEqual({ valid: true, normalised, error: null });
    expect(validatePhone(input, 'mobile').valid).toBe(true);
  });

  test.each([['12345'], ['+1 555 123 4567'], ['0770090012345'], ['0123 4567'], ['phone'], ['']])(
    'phone %p invalid',
    (input) => {
      expect(validatePhone(input).error).toBe('Invalid phone number format');
      expect(validatePhone(input, 'mobile').error).toBe('Invalid mobile format');
    },
  );
});

describe('containsPii (spec §5: a 10-digit number or a NINO pattern)', () => {
  test.each([
    ['UTR 1234567890 on file', true],
    ['1234567890', true],
    ['UTR 12345 67890 as HMRC prints it', true], // the browser and the services share one pattern
    ['utr 12345-67890', true],
    ['tel 01234 567890', false], // 5 + 6 digits: a landline
    ['nino AB123456C', true],
    ['nino ab 12 34 56 c', true],
    ['ref:AB123456C.', true],
    ['phone 07700 900123', false],
    ['invoice 123456789', false], // 9 digits
    ['account 12345678901', false], // 11 digits: not a UTR
    ['just words', false],
    ['ABC123456C', false],
    ['', false],
  ])('%p → %p', (text, expected) => {
    expect(containsPii(text)).toBe(expected);
  });
});
