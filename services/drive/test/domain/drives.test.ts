import {
  CIS_DOCUMENTS_LIBRARY,
  DEFAULT_DRIVE_SETTINGS,
  DRIVE_MESSAGES,
  GIB,
  MODULE_DRIVES,
  MODULE_FOLDER_NAMES,
  MODULE_IDS,
  MODULE_SHARE_LIBRARY_ACL,
  cisTaxYearFolder,
  createQuotaError,
  driveName,
  editQuotaError,
  isScopeName,
  maxFileSizeError,
  mayAutoProvision,
  normaliseExtensions,
  remainingCapacityGB,
  tierLimitBytes,
} from '../../src/domain/index.js';

describe('remaining capacity for Create Shared Drive (drive.md §5)', () => {
  it.each([
    ['5 GB limit, nothing used → 5', 5 * GIB, 0, 5],
    ['5 GB limit, 6 GB used → 0 (floored)', 5 * GIB, 6 * GIB, 0],
    ['5 GB limit, 0.5 GB used → 4 (whole GB)', 5 * GIB, 0.5 * GIB, 4],
    ['200 GB limit, 180.5 GB used → 19', 200 * GIB, 180.5 * GIB, 19],
    ['a limit of 5.9 GB → 5 whole GB', 5.9 * GIB, 0, 5],
  ])('%s', (_case, limit, used, remaining) => {
    expect(remainingCapacityGB(limit, used)).toBe(remaining);
  });

  it('falls back to 5 GB when the capacity check fails, whatever is used', () => {
    expect(remainingCapacityGB(undefined, 0)).toBe(5);
    expect(remainingCapacityGB(undefined, 100 * GIB)).toBe(5);
  });

  it('takes the tier limit, or the custom limit for custom', () => {
    expect(remainingCapacityGB(tierLimitBytes('free', null), 0)).toBe(5);
    expect(remainingCapacityGB(tierLimitBytes('enterprise', null), 0)).toBe(1024);
    expect(remainingCapacityGB(tierLimitBytes('custom', 42 * GIB), 0)).toBe(42);
  });
});

describe('drive quotas', () => {
  it('a new drive takes 1 GB up to the remaining capacity', () => {
    expect(createQuotaError(1, 5)).toBeUndefined();
    expect(createQuotaError(5, 5)).toBeUndefined();
    expect(createQuotaError(6, 5)).toBe('Quota exceeds remaining capacity (5 GB)');
    expect(createQuotaError(1, 0)).toBe('Quota exceeds remaining capacity (0 GB)');
    expect(createQuotaError(0, 5)).toBe('Quota must be at least 1 GB');
    expect(createQuotaError(1.5, 5)).toBe('Quota must be at least 1 GB');
  });

  it('Edit Drive Settings takes 1 to 1000 GB', () => {
    for (const ok of [1, 10, 1000]) expect(editQuotaError(ok)).toBeUndefined();
    for (const bad of [0, 1001, -1, 2.5, Number.NaN])
      expect(editQuotaError(bad)).toBe(DRIVE_MESSAGES.quotaOutOfRange);
    expect(DRIVE_MESSAGES.quotaOutOfRange).toBe('Quota must be between 1 and 1000 GB');
  });

  it('names are trimmed and required', () => {
    expect(driveName('  Site  ')).toBe('Site');
    expect(driveName('   ')).toBeUndefined();
    expect(driveName(undefined)).toBeUndefined();
    expect(DRIVE_MESSAGES.nameRequired).toBe('Drive name is required');
  });

  it('new drives default to blue, Folder, no external sharing, no retention, 1 GB, versioning on, 10 versions', () => {
    expect(DEFAULT_DRIVE_SETTINGS).toMatchObject({
      color: 'blue',
      icon: 'Folder',
      allowExternalSharing: false,
      retentionDays: null,
      quotaGB: 1,
      versioningEnabled: true,
      maxVersions: 10,
    });
  });
});

describe('library policy input', () => {
  it('keeps extensions bare, lower case and once each', () => {
    expect(normaliseExtensions(['.PDF', 'pdf', ' Pdf ', 'DWG', '..tar.gz'.slice(1)])).toEqual({
      extensions: ['pdf', 'dwg'],
      invalid: '.tar.gz',
    });
    expect(normaliseExtensions(['.Docx', 'c++'])).toEqual({ extensions: ['docx', 'c++'] });
    expect(normaliseExtensions(['p d f']).invalid).toBe('p d f');
    expect(normaliseExtensions([''])).toEqual({ extensions: [], invalid: '' });
  });

  it('takes a maximum file size of 1 MB to 5 GiB, or none', () => {
    expect(maxFileSizeError(null)).toBeUndefined();
    expect(maxFileSizeError(1)).toBeUndefined();
    expect(maxFileSizeError(5120)).toBeUndefined();
    expect(maxFileSizeError(0)).toBe('Maximum file size must be between 1 and 5120 MB');
    expect(maxFileSizeError(5121)).toBe('Maximum file size must be between 1 and 5120 MB');
    expect(maxFileSizeError(2.5)).toBe('Maximum file size must be between 1 and 5120 MB');
  });

  it('takes dotted scope names of any module, and the star scope', () => {
    for (const scope of ['drive.file.read', 'cis.pii.unmask', '*', 'drive.exports.template.manage'])
      expect(isScopeName(scope)).toBe(true);
    for (const scope of ['Drive Read', 'drive', 'drive.', '.read', 'drive..read'])
      expect(isScopeName(scope)).toBe(false);
  });
});

describe('the module drive catalogue (drive.md §7, WS-354..357)', () => {
  it('names each module drive and its share library verbatim', () => {
    expect(MODULE_IDS).toEqual(['schedule', 'chat', 'notes', 'cis']);
    expect(
      Object.fromEntries(
        MODULE_IDS.map((id) => [id, [MODULE_DRIVES[id].driveName, MODULE_DRIVES[id].libraryName]]),
      ),
    ).toEqual({
      schedule: ['Schedule Files', 'Team Space'],
      chat: ['Chat Files', 'Conversations'],
      notes: ['Notes Files', 'Workspace'],
      cis: ['CIS Documents', 'Operational'],
    });
  });

  it('names the module folders verbatim, and gives every module drive its own folder or Documentation, and Shared Files', () => {
    expect(MODULE_FOLDER_NAMES).toEqual({
      schedule: 'Schedule Files',
      sign: 'Signatures',
      notes: 'Notes',
      chat: 'Chat Files',
      docs: 'Documentation',
      shared: 'Shared Files',
    });
    for (const id of MODULE_IDS) expect(MODULE_DRIVES[id].folders).toContain('shared');
    expect(MODULE_DRIVES.schedule.folders).toContain('schedule');
    expect(MODULE_DRIVES.chat.folders).toContain('chat');
    expect(MODULE_DRIVES.notes.folders).toContain('notes');
  });

  it('gives the share library read, write, delete and share scopes', () => {
    expect(MODULE_SHARE_LIBRARY_ACL).toEqual({
      readScopes: ['drive.file.read'],
      writeScopes: ['drive.file.upload'],
      deleteScopes: ['drive.file.soft_delete', 'drive.file.hard_delete'],
      shareScopes: ['drive.file.share'],
    });
  });

  it('auto-provisions only with the flag on and a caller who can create or manage drives (WS-358)', () => {
    const none = { canCreateDrives: false, canManageDrives: false };
    expect(mayAutoProvision(false, { canCreateDrives: true, canManageDrives: true })).toBe(false);
    expect(mayAutoProvision(true, none)).toBe(false);
    expect(mayAutoProvision(true, { ...none, canCreateDrives: true })).toBe(true);
    expect(mayAutoProvision(true, { ...none, canManageDrives: true })).toBe(true);
  });

  it('closes the CIS documents library to all but cis.pii.unmask holders, and to sharing and writes', () => {
    expect(CIS_DOCUMENTS_LIBRARY).toMatchObject({
      name: 'Statements and returns',
      acl: { readScopes: ['cis.pii.unmask'], writeScopes: [], shareScopes: [] },
      policies: { readOnly: true, legalHold: true, shareAllowed: false, deletePolicy: 'managerOnly' },
      shareSourcePolicy: { externalAllowed: false },
    });
  });

  it('files CIS documents by tax year (6 April to 5 April; months labelled by their start)', () => {
    expect(cisTaxYearFolder('2025-04')).toBe('Tax year 2025-26');
    expect(cisTaxYearFolder('2026-03')).toBe('Tax year 2025-26');
    expect(cisTaxYearFolder('2025-12')).toBe('Tax year 2025-26');
    expect(cisTaxYearFolder('2026-04')).toBe('Tax year 2026-27');
    expect(cisTaxYearFolder('1999-12')).toBe('Tax year 1999-00');
    expect(cisTaxYearFolder('')).toBe('Other documents');
  });
});
