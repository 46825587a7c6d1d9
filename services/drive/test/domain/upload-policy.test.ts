import {
  configuredLimitRefusal,
  fileTypeAllowed,
  GIB,
  libraryPolicyRefusal,
  MIB,
  monthlyUsage,
  partCount,
  quotaRefusal,
  remainingWholeGB,
  sniffVerdict,
  storageLimitMessage,
  tierFeatures,
  tierLimitBytes,
  UPLOAD_PART_SIZE,
} from '../../src/domain/index.js';

describe('the quota check', () => {
  it("refuses a file larger than the remaining space with the spec's text and GB figures (2 decimals)", () => {
    expect(quotaRefusal({ limitBytes: 5 * GIB, usedBytes: 4.5 * GIB }, 0.75 * GIB)).toEqual({
      message:
        'Storage limit exceeded. You have 0.50 GB remaining, but this file requires 0.75 GB. Please upgrade your storage plan or delete some files.',
      remainingGB: 0.5,
      requiredGB: 0.75,
    });
  });

  it('accepts a file of exactly the remaining space', () => {
    expect(quotaRefusal({ limitBytes: 5 * GIB, usedBytes: 4 * GIB }, GIB)).toBeUndefined();
  });

  it('counts an over-used tenant as 0 GB remaining', () => {
    expect(storageLimitMessage(-GIB, GIB)).toContain('You have 0.00 GB remaining');
  });
});

describe('tier limits and features', () => {
  it('gives each tier its limit; custom uses the custom limit, or the 5 GB fallback when none is set', () => {
    expect(tierLimitBytes('free', null)).toBe(5 * GIB);
    expect(tierLimitBytes('starter', null)).toBe(50 * GIB);
    expect(tierLimitBytes('professional', null)).toBe(200 * GIB);
    expect(tierLimitBytes('enterprise', null)).toBe(1024 * GIB);
    expect(tierLimitBytes('custom', 42 * GIB)).toBe(42 * GIB);
    expect(tierLimitBytes('custom', null)).toBe(5 * GIB);
  });

  it('gives versioning to every tier but free, and the upper features as the spec says', () => {
    expect(tierFeatures('free').versioning).toBe(false);
    expect(tierFeatures('starter')).toEqual({
      versioning: true,
      advancedSharing: false,
      analytics: false,
      customRetention: false,
    });
    expect(tierFeatures('professional')).toMatchObject({
      advancedSharing: true,
      analytics: true,
      customRetention: false,
    });
    expect(tierFeatures('enterprise')).toMatchObject({ advancedSharing: true, customRetention: true });
    expect(tierFeatures('custom', { analytics: true })).toMatchObject({
      versioning: true,
      analytics: true,
      advancedSharing: false,
      customRetention: true,
    });
  });
});

describe('the toolbar’s remaining storage', () => {
  it('is (cap − used) in GiB, floored, at least 0', () => {
    expect(remainingWholeGB(5 * GIB, 0)).toBe(5);
    expect(remainingWholeGB(5 * GIB, 1.2 * GIB)).toBe(3);
    expect(remainingWholeGB(5 * GIB, 6 * GIB)).toBe(0);
  });
});

describe('the library policy', () => {
  const policies = { allowedExtensions: ['pdf', '.DOCX'], maxFileSizeMB: 10 };

  it('refuses an extension outside allowedExtensions: \'File type ".{ext}" not allowed. Allowed types: {list}\'', () => {
    expect(libraryPolicyRefusal(policies, { name: 'setup.exe', size: 1 })).toBe(
      'File type ".exe" not allowed. Allowed types: pdf, docx',
    );
  });

  it("refuses a file over maxFileSizeMB: 'File too large ({n}MB). Maximum allowed: {max}MB'", () => {
    expect(libraryPolicyRefusal(policies, { name: 'a.pdf', size: 12.5 * MIB })).toBe(
      'File too large (12.50MB). Maximum allowed: 10MB',
    );
    expect(libraryPolicyRefusal(policies, { name: 'a.pdf', size: 11 * MIB })).toBe(
      'File too large (11MB). Maximum allowed: 10MB',
    );
  });

  it('accepts an allowed file within the size, and anything when the library sets nothing', () => {
    expect(libraryPolicyRefusal(policies, { name: 'Plan.docx', size: 10 * MIB })).toBeUndefined();
    expect(
      libraryPolicyRefusal({ allowedExtensions: [], maxFileSizeMB: null }, { name: 'x.bin', size: 4 * GIB }),
    ).toBeUndefined();
  });
});

describe('the configured limits', () => {
  const limits = { maxFileSize: 5 * GIB, allowedFileTypes: ['*'] };

  it("refuses a file over the maximum: 'File exceeds maximum allowed size'", () => {
    expect(configuredLimitRefusal(limits, { name: 'a.bin', mimeType: '', size: 5 * GIB + 1 })).toBe(
      'File exceeds maximum allowed size',
    );
    expect(configuredLimitRefusal(limits, { name: 'a.bin', mimeType: '', size: 5 * GIB })).toBeUndefined();
  });

  it("accepts every type by default ('*'), and refuses one outside a list: 'File type not allowed'", () => {
    expect(
      configuredLimitRefusal(limits, { name: 'x.exe', mimeType: 'application/x-msdownload', size: 1 }),
    ).toBeUndefined();
    expect(
      configuredLimitRefusal(
        { ...limits, allowedFileTypes: ['application/pdf'] },
        { name: 'x.exe', mimeType: 'application/x-msdownload', size: 1 },
      ),
    ).toBe('File type not allowed');
  });

  it("matches by MIME type (with 'type/*'), by '.ext' and by bare 'ext'", () => {
    expect(fileTypeAllowed(['application/pdf'], { name: 'scan', mimeType: 'application/pdf' })).toBe(true);
    expect(fileTypeAllowed(['image/*'], { name: 'a', mimeType: 'image/png' })).toBe(true);
    expect(fileTypeAllowed(['.png'], { name: 'logo.PNG', mimeType: '' })).toBe(true);
    expect(fileTypeAllowed(['txt'], { name: 'notes.txt', mimeType: '' })).toBe(true);
    expect(fileTypeAllowed(['txt'], { name: 'txt', mimeType: '' })).toBe(false);
    expect(fileTypeAllowed(['image/*', '.pdf'], { name: 'a.doc', mimeType: 'application/msword' })).toBe(
      false,
    );
  });
});

describe('parts', () => {
  it('sends a file in 5 MiB parts, at least one', () => {
    expect(UPLOAD_PART_SIZE).toBe(5 * MIB);
    expect(partCount(0)).toBe(1);
    expect(partCount(5 * MIB)).toBe(1);
    expect(partCount(5 * MIB + 1)).toBe(2);
    expect(partCount(GIB)).toBe(205);
  });
});

describe('content sniffing', () => {
  it('accepts what nothing recognises (text, CSV, JSON), and a match', () => {
    expect(sniffVerdict('rates.csv', undefined)).toEqual({ verdict: 'accept' });
    expect(sniffVerdict('Plan.pdf', { ext: 'pdf', mime: 'application/pdf' })).toEqual({ verdict: 'accept' });
  });

  it('refuses a program under any other name', () => {
    const verdict = sniffVerdict('Contract.pdf', { ext: 'exe', mime: 'application/x-msdownload' });
    expect(verdict).toEqual({
      verdict: 'refuse',
      message:
        'The file\'s content does not match its name: "Contract.pdf" contains EXE data (application/x-msdownload), not what .pdf promises. Rename it or upload the right file.',
    });
    expect(sniffVerdict('data.bin', { ext: 'elf', mime: 'application/x-elf' }).verdict).toBe('refuse');
  });

  it('refuses a known type of another class than the name’s', () => {
    expect(sniffVerdict('Invoice.pdf', { ext: 'zip', mime: 'application/zip' }).verdict).toBe('refuse');
    expect(sniffVerdict('photo.jpg', { ext: 'pdf', mime: 'application/pdf' }).verdict).toBe('refuse');
  });

  it('accepts a zip under an office or archive name (they are zips)', () => {
    expect(sniffVerdict('Minutes.docx', { ext: 'zip', mime: 'application/zip' }).verdict).toBe('accept');
    expect(sniffVerdict('Valuation.xlsx', { ext: 'zip', mime: 'application/zip' }).verdict).toBe('accept');
  });

  it('keeps the same kind in another format, flagged with what it is', () => {
    expect(sniffVerdict('Site.jpg', { ext: 'png', mime: 'image/png' })).toEqual({
      verdict: 'flag',
      flag: 'png (image/png)',
    });
  });

  it('accepts any content under a name of no known class', () => {
    expect(sniffVerdict('model.dwg', { ext: 'zip', mime: 'application/zip' }).verdict).toBe('accept');
  });
});

describe('monthly usage', () => {
  it('sums daily rows by calendar month, oldest first', () => {
    const day = (d: string, added: number) => ({
      day: d,
      bytesAdded: added,
      bytesRemoved: 1,
      filesAdded: 1,
      filesRemoved: 0,
    });
    expect(monthlyUsage([day('2026-11-02', 5), day('2026-10-31', 7), day('2026-11-20', 3)])).toEqual([
      { month: '2026-10', bytesAdded: 7, bytesRemoved: 1, filesAdded: 1, filesRemoved: 0 },
      { month: '2026-11', bytesAdded: 8, bytesRemoved: 2, filesAdded: 2, filesRemoved: 0 },
    ]);
  });
});
