import type { Knex } from '@workspace/kit';
import type { CisClient } from '../clients/cis.js';
import { CisDocumentStore } from '../db/cis-documents.store.js';
import { DriveStore } from '../db/drives.store.js';
import { FolderStore } from '../db/folders.store.js';
import { FileStore } from '../db/files.store.js';
import { cisTaxYearFolder, slugify, type CisDocumentKind } from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import type { Actor } from '../events/audit.js';
import { ensureCisDocumentsLibrary, systemModuleDrive } from './module-drives.js';
import { storeServerFile } from './server-files.js';
import { storeServerVersion } from './versions.js';

export type FilingOutcome = 'filed' | 'new-version' | 'already-filed' | 'not-found';

/** The system files the documents: they are the CIS module's, not any user's. */
const SYSTEM = 'system';

/**
 * Files one cis document (ADR 0046): fetched from cis, stored in the CIS drive's restricted library ('Statements and
 * returns'), in the folder of its tax year, owned by the system, audited CIS_DOCUMENT_FILED; the cis document id and
 * version remembered so a repeated event stores nothing twice, and a resubmitted return becomes a new version of its
 * file. In the caller's transaction: a failure (cis or the object store down) leaves nothing filed and is thrown for
 * the consumer to retry. A document cis does not have (not issued, not this tenant's) is 'not-found'.
 */
export async function fileCisDocument(
  deps: DriveDeps,
  trx: Knex.Transaction,
  cis: CisClient,
  tenantId: string,
  kind: CisDocumentKind,
  cisId: string,
): Promise<FilingOutcome> {
  const document = await cis.document(kind, tenantId, cisId);
  if (!document) return 'not-found';
  const actor: Actor = { tenantId, userId: SYSTEM };
  const drives = new DriveStore(trx);
  const filings = new CisDocumentStore(trx);
  await drives.lock(`cis-document:${kind}:${cisId}`);
  if (await filings.find(kind, cisId, document.ref)) return 'already-filed';
  const earlier = await filings.latest(kind, cisId);
  const earlierFile = earlier ? await new FileStore(trx).get(earlier.fileId) : undefined;
  let file;
  if (earlierFile) {
    file = await storeServerVersion(deps, trx, actor, earlierFile, {
      bytes: document.bytes,
      mimeType: document.mimeType,
      note: 'Submitted again',
    });
  } else {
    const drive = await systemModuleDrive(deps, trx, actor, 'cis');
    const library = await ensureCisDocumentsLibrary(deps, trx, actor, drive);
    const folderName = cisTaxYearFolder(document.taxMonth);
    const folderId = await new FolderStore(trx).topFolder(
      tenantId,
      drive.id,
      library.id,
      { name: folderName, slug: slugify(folderName) },
      SYSTEM,
    );
    file = await storeServerFile(deps, trx, actor, {
      driveId: drive.id,
      libraryId: library.id,
      folderId,
      name: document.fileName,
      mimeType: document.mimeType,
      bytes: document.bytes,
      ownerId: SYSTEM,
      ownerName: 'CIS',
    });
  }
  await filings.insert({
    tenantId,
    kind,
    cisId,
    submissionRef: document.ref,
    fileId: file.id,
    fileVersion: file.version,
    taxMonth: document.taxMonth,
  });
  await deps.audit.write(trx, actor, 'CIS_DOCUMENT_FILED', {
    targetType: 'file',
    targetId: file.id,
    details: { kind, cisId, taxMonth: document.taxMonth, version: file.version, libraryId: file.libraryId },
  });
  return earlierFile ? 'new-version' : 'filed';
}
