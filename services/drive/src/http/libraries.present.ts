import type { z } from 'zod';
import type { LibraryRecord } from '../db/libraries.store.js';
import type { libraryView } from './libraries.schemas.js';

/** A library as the browser reads it (drive.md §3), with its drive's name. */
export function presentLibrary(library: LibraryRecord, driveName: string): z.input<typeof libraryView> {
  return {
    id: library.id,
    driveId: library.driveId,
    driveName,
    name: library.name,
    description: library.description,
    kind: library.kind,
    context: library.context,
    memberIds: library.memberIds,
    visibleInDriveUI: library.visibleInDriveUI,
    acl: {
      readScopes: [...library.acl.readScopes],
      writeScopes: [...library.acl.writeScopes],
      deleteScopes: [...library.acl.deleteScopes],
      shareScopes: [...library.acl.shareScopes],
    },
    policies: { ...library.policies, allowedExtensions: [...library.policies.allowedExtensions] },
    shareSourcePolicy: { ...library.shareSourcePolicy },
    createdAt: library.createdAt.toISOString(),
  };
}
