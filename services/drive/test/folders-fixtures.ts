// Drives, libraries (fixtures.ts's seeder) and files (storeServerFile) the folder and signature tests work in.
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { storeServerFile } from '../src/commands/server-files.js';
import type { FileRecord } from '../src/db/files.store.js';
import type { DEFAULT_LIBRARY_POLICIES } from '../src/domain/index.js';
import { seedDriveAndLibrary } from './fixtures.js';
import type { DriveHarness } from './support.js';

export interface Place {
  driveId: string;
  libraryId: string;
}

/**
 * A tenant-wide shared drive named `name` with one library of the default ACL (and these policies), in `tenantId`,
 * owned by `ownerId`.
 */
export async function makePlace(
  h: DriveHarness,
  tenantId: string,
  ownerId: string,
  name = 'Contracts',
  policies: Partial<typeof DEFAULT_LIBRARY_POLICIES> = {},
): Promise<Place> {
  const { driveId, libraryId } = await seedDriveAndLibrary(h, {
    tenantId,
    ownerId,
    drive: { name },
    library: { name: `${name} library` },
    policies,
    defaultLibrary: true,
  });
  return { driveId, libraryId };
}

/** A file stored by the service itself (storeServerFile) in `place`, optionally in a folder. */
export function insertFile(
  h: DriveHarness,
  tenantId: string,
  place: Place & { folderId?: string | null },
  file: { name: string; bytes: Buffer; mimeType?: string; ownerId: string },
): Promise<FileRecord> {
  const deps = h.definition.deps();
  return deps.inTenant(tenantId, (trx) =>
    storeServerFile(
      deps,
      trx,
      { tenantId, userId: file.ownerId },
      {
        driveId: place.driveId,
        libraryId: place.libraryId,
        folderId: place.folderId ?? null,
        name: file.name,
        mimeType: file.mimeType ?? 'application/octet-stream',
        bytes: file.bytes,
        ownerId: file.ownerId,
      },
    ),
  );
}

/** A real one-page PDF saying `text`. */
export async function makePdf(text: string): Promise<Buffer> {
  const document = await PDFDocument.create();
  const page = document.addPage([595.28, 841.89]);
  const font = await document.embedFont(StandardFonts.Helvetica);
  page.drawText(text, { x: 56, y: 760, size: 14, font });
  return Buffer.from(await document.save());
}

/** The payloads of the tenant's outbox events of one type, oldest first. */
export function outbox(h: DriveHarness, type: string, tenantId = 'demo'): Promise<Record<string, unknown>[]> {
  return h.definition.deps().inTenant(tenantId, async (trx) => {
    const rows: { payload: unknown }[] = await trx('outbox').where({ type }).orderBy('id').select('payload');
    return rows.map((row) =>
      typeof row.payload === 'string'
        ? (JSON.parse(row.payload) as Record<string, unknown>)
        : (row.payload as Record<string, unknown>),
    );
  });
}
