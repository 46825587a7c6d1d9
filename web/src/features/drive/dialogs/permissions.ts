// The words of the Access Restricted page for a denied drive action (workspace.md "Access Restricted", drive.md §6).
import { driveScopes } from '@workspace/drive/domain';

/**
 * What a drive, library, file, attachment, export, backup, audit or personal-data permission allows, in words (the
 * scope catalogue's descriptions): 'create drives', 'view backup status'...; an unknown scope is named as it is.
 */
export function permissionAction(scope: string): string {
  return driveScopes.catalogue.find((entry) => entry.scope === scope)?.description ?? scope;
}
