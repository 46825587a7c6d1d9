// Who may do what in the drive (drive.md §6): the toolbar's ability flags from the caller's scopes, drive
// membership, and the library rules (ACL scopes and policies). The service enforces these on every route; the web
// reads the same answers to show or hide controls.
import { STAR_SCOPE } from '@workspace/rules';
import type { DeletePolicy, DriveType, MemberRole } from './constants.js';

/** The caller as the rules see them: the (already expanded) scopes of their token and who they are. */
export interface Caller {
  userId: string;
  scopes: ReadonlySet<string>;
  /** The super-administrator claim: passes every check. */
  superAdmin?: boolean;
}

export const MANAGE_ALL_SCOPE = 'drive.manage_all';

export function holds(caller: Caller, scope: string): boolean {
  return caller.superAdmin === true || caller.scopes.has(STAR_SCOPE) || caller.scopes.has(scope);
}

const holdsAny = (caller: Caller, scopes: readonly string[]): boolean =>
  scopes.some((scope) => holds(caller, scope));

/** The toolbar flags of drive.md §6, plus the two the screens also need (canView, canShareFiles). */
export interface DriveAbilities {
  canView: boolean;
  canUpload: boolean;
  canDelete: boolean;
  canCreateFolders: boolean;
  canManageFolders: boolean;
  canCreateDrives: boolean;
  canManageDrives: boolean;
  canCreateShares: boolean;
  canCreateShelves: boolean;
  canManageShelves: boolean;
  canHardDeleteFiles: boolean;
  canRestoreFiles: boolean;
  canSoftDeleteFiles: boolean;
  canMoveFiles: boolean;
  canCreateLibraries: boolean;
  canManageLibraries: boolean;
  canShareFiles: boolean;
  canManageAll: boolean;
  canRequestSignatures: boolean;
  canSign: boolean;
  canViewSignatures: boolean;
  /** Repair orphaned file references (repair-refs: the drive's Repair references). */
  canRepairReferences: boolean;
}

/**
 * The ability flags from scopes. Manage-all implies delete, restore, share, library and folder management (identity
 * expands it into those scopes; the flags read it again so a token with only drive.manage_all also passes).
 * Shelves are the libraries' other name in the toolbar flags (docs/drive.md).
 */
export function driveAbilities(caller: Caller): DriveAbilities {
  const all = holds(caller, MANAGE_ALL_SCOPE);
  const can = (scope: string) => all || holds(caller, scope);
  const softDelete = can('drive.file.soft_delete');
  const hardDelete = can('drive.file.hard_delete');
  return {
    canView: holdsAny(caller, ['drive.view', 'drive.read', 'drive.file.read']) || all,
    canUpload: holds(caller, 'drive.file.upload'),
    canDelete: softDelete || hardDelete,
    canCreateFolders: can('drive.folders.create'),
    canManageFolders: can('drive.folders.manage'),
    canCreateDrives: holds(caller, 'drive.drives.create'),
    canManageDrives: holds(caller, 'drive.drives.manage'),
    canCreateShares: can('drive.exports.create') || can('drive.file.share'),
    canCreateShelves: can('drive.libraries.create'),
    canManageShelves: can('drive.libraries.manage'),
    canHardDeleteFiles: hardDelete,
    canRestoreFiles: can('drive.file.restore'),
    canSoftDeleteFiles: softDelete,
    canMoveFiles: can('drive.file.move'),
    canCreateLibraries: can('drive.libraries.create'),
    canManageLibraries: can('drive.libraries.manage'),
    canShareFiles: can('drive.file.share'),
    canManageAll: all,
    canRequestSignatures: holds(caller, 'drive.signatures.create'),
    canSign: holds(caller, 'drive.signatures.sign'),
    canViewSignatures: holds(caller, 'drive.signatures.view'),
    canRepairReferences: holds(caller, 'drive.attachment.add'),
  };
}

/** A drive as the access rules see it. */
export interface DriveAccessView {
  type: DriveType;
  ownerId: string;
  /** members: only its members (and drive managers) see it; tenant: every member of the tenant (module drives). */
  visibility: 'members' | 'tenant';
  members: readonly { userId: string; role: MemberRole }[];
}

export function memberRole(drive: DriveAccessView, userId: string): MemberRole | undefined {
  if (drive.ownerId === userId) return 'owner';
  return drive.members.find((member) => member.userId === userId)?.role;
}

/**
 * Whether the caller may see the drive at all: a personal drive only its owner; a members drive its members and
 * holders of drive.drives.manage or manage-all; a tenant-wide drive (module drives) anyone in the tenant.
 */
export function canSeeDrive(caller: Caller, drive: DriveAccessView): boolean {
  if (caller.superAdmin === true) return true;
  if (drive.type === 'personal') return drive.ownerId === caller.userId;
  if (drive.visibility === 'tenant') return true;
  if (memberRole(drive, caller.userId) !== undefined) return true;
  return holdsAny(caller, ['drive.drives.manage', MANAGE_ALL_SCOPE]);
}

/** Whether the caller may change the drive's settings and members: its owner or a manager, or drive.drives.manage. */
export function canManageDrive(caller: Caller, drive: DriveAccessView): boolean {
  const role = memberRole(drive, caller.userId);
  return (
    role === 'owner' || role === 'manager' || holdsAny(caller, ['drive.drives.manage', MANAGE_ALL_SCOPE])
  );
}

export interface LibraryAcl {
  readScopes: readonly string[];
  writeScopes: readonly string[];
  deleteScopes: readonly string[];
  shareScopes: readonly string[];
}

export interface LibraryPolicies {
  readOnly: boolean;
  legalHold: boolean;
  shareAllowed: boolean;
  deletePolicy: DeletePolicy;
  /** Bare lower-case extensions; empty: every type. */
  allowedExtensions: readonly string[];
  maxFileSizeMB: number | null;
}

export interface ShareSourcePolicy {
  externalAllowed: boolean;
  requireWatermark: boolean;
  requireRecord: boolean;
}

export interface LibraryAccessView {
  acl: LibraryAcl;
  policies: LibraryPolicies;
  shareSourcePolicy: ShareSourcePolicy;
}

/** A library's ACL when none is given: the drive's own file scopes. */
export const DEFAULT_LIBRARY_ACL: LibraryAcl = {
  readScopes: ['drive.file.read'],
  writeScopes: ['drive.file.upload'],
  deleteScopes: ['drive.file.soft_delete', 'drive.file.hard_delete'],
  shareScopes: ['drive.file.share'],
};

export const DEFAULT_LIBRARY_POLICIES: LibraryPolicies = {
  readOnly: false,
  legalHold: false,
  shareAllowed: true,
  deletePolicy: 'none',
  allowedExtensions: [],
  maxFileSizeMB: null,
};

export const DEFAULT_SHARE_SOURCE_POLICY: ShareSourcePolicy = {
  externalAllowed: true,
  requireWatermark: false,
  requireRecord: false,
};

/**
 * Whether the drive's manage-all scope reaches the library: it administers what the drive's own scopes guard, not a
 * library another module gates with one of its scopes (the CIS documents library, read with cis.pii.unmask: a drive
 * administrator without that scope must not read clear UTRs and NINOs).
 */
function manageAllReaches(caller: Caller, library: LibraryAccessView): boolean {
  return (
    holds(caller, MANAGE_ALL_SCOPE) &&
    library.acl.readScopes.every((scope) => scope === STAR_SCOPE || scope.startsWith('drive.'))
  );
}

/** Read: manage-all or any read scope of the library. */
export function canReadLibrary(caller: Caller, library: LibraryAccessView): boolean {
  return manageAllReaches(caller, library) || holdsAny(caller, library.acl.readScopes);
}

/**
 * Write (upload, rename, move into): manage-all or a write scope; a readOnly library takes writes only from holders
 * of the replace-version scope (a new version of a file already there).
 */
export function canWriteLibrary(caller: Caller, library: LibraryAccessView): boolean {
  if (library.policies.readOnly) return holds(caller, 'drive.file.replace_version');
  return manageAllReaches(caller, library) || holdsAny(caller, library.acl.writeScopes);
}

/** Replacing a file's version: the replace-version scope, or (outside readOnly libraries) the write rule. */
export function canReplaceVersion(caller: Caller, library: LibraryAccessView): boolean {
  return holds(caller, 'drive.file.replace_version') || canWriteLibrary(caller, library);
}

export type DeleteRefusal = 'legal_hold' | 'two_person' | 'owner_only' | 'manager_only' | 'no_scope';

/**
 * Whether the caller may delete (trash or purge) a file of the library: legal hold blocks every delete; then the
 * delete policy (none: no extra rule; ownerOnly: only the file's owner; managerOnly: holders of manage-all;
 * twoPerson: never), then manage-all or a delete scope of the library. Undefined when allowed.
 */
export function deleteRefusal(
  caller: Caller,
  library: LibraryAccessView,
  file: { ownerId: string },
): DeleteRefusal | undefined {
  if (library.policies.legalHold) return 'legal_hold';
  const all = holds(caller, MANAGE_ALL_SCOPE);
  switch (library.policies.deletePolicy) {
    case 'twoPerson':
      return 'two_person';
    case 'ownerOnly':
      if (file.ownerId !== caller.userId) return 'owner_only';
      break;
    case 'managerOnly':
      if (!all) return 'manager_only';
      break;
    case 'none':
      break;
  }
  return all || holdsAny(caller, library.acl.deleteScopes) ? undefined : 'no_scope';
}

/** Share a file of the library: the library allows sharing, and the caller holds manage-all or a share scope. */
export function canShareFromLibrary(caller: Caller, library: LibraryAccessView): boolean {
  if (!library.policies.shareAllowed) return false;
  return holds(caller, MANAGE_ALL_SCOPE) || holdsAny(caller, library.acl.shareScopes);
}

/**
 * Create a share (export) of the library's files: manage-all or admin, or exports-create or file-share, or write
 * access to the library; and the library must allow sharing.
 */
export function canCreateShareFromLibrary(caller: Caller, library: LibraryAccessView): boolean {
  if (!library.policies.shareAllowed) return false;
  return (
    holdsAny(caller, [MANAGE_ALL_SCOPE, 'drive.admin', 'drive.exports.create', 'drive.file.share']) ||
    canWriteLibrary(caller, library)
  );
}

/** A file as the read rule sees it. */
export interface FileAccessView {
  ownerId: string;
  visibility: 'shared' | 'private' | 'restricted';
  allowedUids: readonly string[];
  sharedWith: readonly string[];
}

/**
 * Whether the caller may open a file (docs/drive.md "Who sees a file"): the library's read rule always applies (a
 * CIS documents library stays closed to anyone without its scope, however the file was shared). Then: a file shared
 * with the caller by name is theirs to read; otherwise they must see the drive, and a restricted file is only its
 * owner's, its allowed users' and manage-all holders'.
 */
export function canReadFile(
  caller: Caller,
  drive: DriveAccessView,
  library: LibraryAccessView,
  file: FileAccessView,
): boolean {
  if (!canReadLibrary(caller, library)) return false;
  if (file.ownerId === caller.userId || file.sharedWith.includes(caller.userId)) return true;
  if (!canSeeDrive(caller, drive)) return false;
  if (file.visibility !== 'restricted') return true;
  return file.allowedUids.includes(caller.userId) || holds(caller, MANAGE_ALL_SCOPE);
}
