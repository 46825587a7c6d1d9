// The access rules of drive.md §6, table by table: the star scope and the super-administrator claim, manage-all,
// each delete policy, readOnly with replace-version, shareAllowed, creating a share from a library, reading a file.
import {
  CIS_DOCUMENTS_LIBRARY,
  DEFAULT_LIBRARY_ACL,
  DEFAULT_LIBRARY_POLICIES,
  DEFAULT_SHARE_SOURCE_POLICY,
  canCreateShareFromLibrary,
  canManageDrive,
  canReadFile,
  canReadLibrary,
  canReplaceVersion,
  canSeeDrive,
  canShareFromLibrary,
  canWriteLibrary,
  deleteRefusal,
  driveAbilities,
  type Caller,
  type DeletePolicy,
  type DriveAccessView,
  type FileAccessView,
  type LibraryAccessView,
  type LibraryPolicies,
} from '../../src/domain/index.js';

const ME = 'u-me';
const OTHER = 'u-other';
const caller = (scopes: string[], extra: Partial<Caller> = {}): Caller => ({
  userId: ME,
  scopes: new Set(scopes),
  ...extra,
});
const library = (policies: Partial<LibraryPolicies> = {}, acl = DEFAULT_LIBRARY_ACL): LibraryAccessView => ({
  acl,
  policies: { ...DEFAULT_LIBRARY_POLICIES, ...policies },
  shareSourcePolicy: DEFAULT_SHARE_SOURCE_POLICY,
});
const cisLibrary: LibraryAccessView = {
  acl: CIS_DOCUMENTS_LIBRARY.acl,
  policies: CIS_DOCUMENTS_LIBRARY.policies,
  shareSourcePolicy: CIS_DOCUMENTS_LIBRARY.shareSourcePolicy,
};
const drive = (overrides: Partial<DriveAccessView> = {}): DriveAccessView => ({
  type: 'shared',
  ownerId: OTHER,
  visibility: 'members',
  members: [],
  ...overrides,
});
const file = (overrides: Partial<FileAccessView> = {}): FileAccessView => ({
  ownerId: OTHER,
  visibility: 'shared',
  allowedUids: [],
  sharedWith: [],
  ...overrides,
});

const STAR = caller(['*']);
const SUPER = caller([], { superAdmin: true });
const MANAGE_ALL = caller(['drive.manage_all']);
const NOBODY = caller([]);

describe('star scope and super-administrator pass every check', () => {
  it.each([
    ['star scope', STAR],
    ['super-administrator', SUPER],
  ])('%s', (_name, who) => {
    const abilities = driveAbilities(who);
    expect(Object.values(abilities).every(Boolean)).toBe(true);
    expect(canReadLibrary(who, library())).toBe(true);
    expect(canWriteLibrary(who, library())).toBe(true);
    expect(deleteRefusal(who, library(), file())).toBeUndefined();
    expect(canShareFromLibrary(who, library())).toBe(true);
    expect(canReadLibrary(who, cisLibrary)).toBe(true);
  });

  it('a caller without scopes passes nothing', () => {
    expect(Object.values(driveAbilities(NOBODY)).some(Boolean)).toBe(false);
    expect(canReadLibrary(NOBODY, library())).toBe(false);
    expect(canWriteLibrary(NOBODY, library())).toBe(false);
    expect(deleteRefusal(NOBODY, library(), file({ ownerId: ME }))).toBe('no_scope');
  });
});

describe('toolbar flags follow scopes (drive.md §6)', () => {
  it.each([
    ['drive.file.upload', 'canUpload'],
    ['drive.file.soft_delete', 'canSoftDeleteFiles'],
    ['drive.file.hard_delete', 'canHardDeleteFiles'],
    ['drive.file.restore', 'canRestoreFiles'],
    ['drive.file.move', 'canMoveFiles'],
    ['drive.folders.create', 'canCreateFolders'],
    ['drive.folders.manage', 'canManageFolders'],
    ['drive.drives.create', 'canCreateDrives'],
    ['drive.libraries.create', 'canCreateLibraries'],
    ['drive.libraries.manage', 'canManageLibraries'],
    ['drive.exports.create', 'canCreateShares'],
    ['drive.libraries.create', 'canCreateShelves'],
    ['drive.libraries.manage', 'canManageShelves'],
    ['drive.attachment.add', 'canRepairReferences'],
  ] as const)('%s gives %s', (scope, flag) => {
    expect(driveAbilities(caller([scope]))[flag]).toBe(true);
    expect(driveAbilities(NOBODY)[flag]).toBe(false);
  });

  it('manage-all implies delete, restore, share, library and folder management, not upload or drive creation', () => {
    const abilities = driveAbilities(MANAGE_ALL);
    for (const flag of [
      'canDelete',
      'canSoftDeleteFiles',
      'canHardDeleteFiles',
      'canRestoreFiles',
      'canShareFiles',
      'canCreateShares',
      'canCreateLibraries',
      'canManageLibraries',
      'canCreateFolders',
      'canManageFolders',
    ] as const)
      expect([flag, abilities[flag]]).toEqual([flag, true]);
    expect(abilities.canUpload).toBe(false);
    expect(abilities.canCreateDrives).toBe(false);
  });
});

describe('library read and write (drive.md §6)', () => {
  it.each([
    ['a read scope of the library', ['drive.file.read'], true],
    ['manage-all', ['drive.manage_all'], true],
    ['another scope', ['drive.file.upload'], false],
  ])('read with %s: %s', (_name, scopes, allowed) => {
    expect(canReadLibrary(caller(scopes), library())).toBe(allowed);
  });

  it("manage-all does not open a library gated by another module's scope (the CIS documents); its holders do", () => {
    expect(canReadLibrary(MANAGE_ALL, cisLibrary)).toBe(false);
    expect(canReadLibrary(caller(['cis.pii.unmask']), cisLibrary)).toBe(true);
    expect(
      canWriteLibrary(MANAGE_ALL, library({}, { ...DEFAULT_LIBRARY_ACL, readScopes: ['cis.pii.unmask'] })),
    ).toBe(false);
  });

  it.each([
    ['a write scope', ['drive.file.upload'], false, true],
    ['manage-all', ['drive.manage_all'], false, true],
    ['no write scope', ['drive.file.read'], false, false],
    ['readOnly: a write scope is not enough', ['drive.file.upload'], true, false],
    ['readOnly: manage-all is not enough', ['drive.manage_all'], true, false],
    ['readOnly: replace-version writes', ['drive.file.replace_version'], true, true],
  ])('write with %s', (_name, scopes, readOnly, allowed) => {
    expect(canWriteLibrary(caller(scopes), library({ readOnly }))).toBe(allowed);
  });

  it('replace-version: the scope always, or the write rule outside readOnly', () => {
    expect(canReplaceVersion(caller(['drive.file.replace_version']), library({ readOnly: true }))).toBe(true);
    expect(canReplaceVersion(caller(['drive.file.upload']), library())).toBe(true);
    expect(canReplaceVersion(caller(['drive.file.upload']), library({ readOnly: true }))).toBe(false);
  });
});

describe('delete policies (drive.md §4, §6)', () => {
  const DELETER = caller(['drive.file.soft_delete']);
  const READER_ONLY = caller(['drive.file.read']);
  const table: [string, DeletePolicy, Caller, string, string | undefined][] = [
    ['none: a delete-scope holder deleting another’s file → allowed', 'none', DELETER, OTHER, undefined],
    [
      'none: a caller without a delete scope deleting their own file → no_scope',
      'none',
      READER_ONLY,
      ME,
      'no_scope',
    ],
    [
      'ownerOnly: a delete-scope holder deleting their own file → allowed',
      'ownerOnly',
      DELETER,
      ME,
      undefined,
    ],
    [
      'ownerOnly: a delete-scope holder deleting another’s file → owner_only',
      'ownerOnly',
      DELETER,
      OTHER,
      'owner_only',
    ],
    [
      'ownerOnly: manage-all deleting another’s file → owner_only',
      'ownerOnly',
      MANAGE_ALL,
      OTHER,
      'owner_only',
    ],
    [
      'managerOnly: a delete-scope holder deleting their own file → manager_only',
      'managerOnly',
      DELETER,
      ME,
      'manager_only',
    ],
    [
      'managerOnly: manage-all deleting another’s file → allowed',
      'managerOnly',
      MANAGE_ALL,
      OTHER,
      undefined,
    ],
    ['twoPerson: manage-all deleting their own file → two_person', 'twoPerson', MANAGE_ALL, ME, 'two_person'],
    ['twoPerson: the star scope deleting their own file → two_person', 'twoPerson', STAR, ME, 'two_person'],
  ];
  it.each(table)('%s', (_name, deletePolicy, who, owner, refusal) => {
    expect(deleteRefusal(who, library({ deletePolicy }), file({ ownerId: owner }))).toBe(refusal);
  });

  it('legal hold blocks every delete, even manage-all under no policy', () => {
    expect(deleteRefusal(MANAGE_ALL, library({ legalHold: true }), file({ ownerId: ME }))).toBe('legal_hold');
    expect(deleteRefusal(SUPER, cisLibrary, file())).toBe('legal_hold');
  });
});

describe('sharing (drive.md §6)', () => {
  it.each([
    ['a share scope', ['drive.file.share'], true],
    ['manage-all', ['drive.manage_all'], true],
    ['no share scope', ['drive.file.upload'], false],
  ])('share from a library with %s', (_name, scopes, allowed) => {
    expect(canShareFromLibrary(caller(scopes), library())).toBe(allowed);
    expect(canShareFromLibrary(caller(scopes), library({ shareAllowed: false }))).toBe(false);
  });

  it.each([
    ['manage-all', ['drive.manage_all'], true],
    ['admin', ['drive.admin'], true],
    ['exports-create', ['drive.exports.create'], true],
    ['file-share', ['drive.file.share'], true],
    ['write access', ['drive.file.upload'], true],
    ['read only', ['drive.file.read'], false],
  ])('create a share from a library with %s', (_name, scopes, allowed) => {
    expect(canCreateShareFromLibrary(caller(scopes), library())).toBe(allowed);
    expect(canCreateShareFromLibrary(caller(scopes), library({ shareAllowed: false }))).toBe(false);
  });

  it('never shares the CIS documents, whoever asks', () => {
    for (const who of [STAR, SUPER, MANAGE_ALL, caller(['cis.pii.unmask', 'drive.file.share'])]) {
      expect(canShareFromLibrary(who, cisLibrary)).toBe(false);
      expect(canCreateShareFromLibrary(who, cisLibrary)).toBe(false);
    }
  });
});

describe('drives and files (docs/drive.md "Who sees a file")', () => {
  it('a personal drive is its owner’s; a members drive its members’ and drive managers’; a tenant drive everyone’s', () => {
    expect(canSeeDrive(caller([]), drive({ type: 'personal', ownerId: ME }))).toBe(true);
    expect(canSeeDrive(caller(['drive.drives.manage']), drive({ type: 'personal' }))).toBe(false);
    expect(canSeeDrive(caller([]), drive({ members: [{ userId: ME, role: 'contributor' }] }))).toBe(true);
    expect(canSeeDrive(caller([]), drive())).toBe(false);
    expect(canSeeDrive(caller(['drive.drives.manage']), drive())).toBe(true);
    expect(canSeeDrive(caller([]), drive({ visibility: 'tenant', type: 'module' }))).toBe(true);
  });

  it('owners and managers manage a drive; contributors do not', () => {
    expect(canManageDrive(caller([]), drive({ ownerId: ME }))).toBe(true);
    expect(canManageDrive(caller([]), drive({ members: [{ userId: ME, role: 'manager' }] }))).toBe(true);
    expect(canManageDrive(caller([]), drive({ members: [{ userId: ME, role: 'contributor' }] }))).toBe(false);
    expect(canManageDrive(caller(['drive.drives.manage']), drive())).toBe(true);
  });

  const reader = caller(['drive.file.read']);
  const member = drive({ members: [{ userId: ME, role: 'contributor' }] });
  it.each([
    ['a shared file in a drive they see', reader, member, library(), file(), true],
    ['no read scope of the library', caller([]), member, library(), file({ ownerId: ME }), false],
    ['a drive they cannot see', reader, drive(), library(), file(), false],
    [
      'a file shared with them by name, drive unseen',
      reader,
      drive(),
      library(),
      file({ sharedWith: [ME] }),
      true,
    ],
    ['a restricted file not for them', reader, member, library(), file({ visibility: 'restricted' }), false],
    [
      'a restricted file that allows them',
      reader,
      member,
      library(),
      file({ visibility: 'restricted', allowedUids: [ME] }),
      true,
    ],
    [
      'a restricted file, manage-all',
      caller(['drive.file.read', 'drive.manage_all']),
      member,
      library(),
      file({ visibility: 'restricted' }),
      true,
    ],
    [
      'a CIS document, manage-all without unmask',
      MANAGE_ALL,
      drive({ visibility: 'tenant' }),
      cisLibrary,
      file(),
      false,
    ],
    [
      'a CIS document shared with them by name, without unmask',
      reader,
      drive({ visibility: 'tenant' }),
      cisLibrary,
      file({ sharedWith: [ME] }),
      false,
    ],
    [
      'a CIS document, with unmask',
      caller(['cis.pii.unmask']),
      drive({ visibility: 'tenant' }),
      cisLibrary,
      file(),
      true,
    ],
  ])('%s', (_name, who, where, lib, what, allowed) => {
    expect(canReadFile(who, where, lib, what)).toBe(allowed);
  });
});
