import type { Migration } from '@workspace/kit';
import { driveSchema } from './001_drive.js';
import { uploadExpiry } from './002_upload_expiry.js';
import { fileList } from './003_file_list.js';
import { trashSchema } from './004_trash.js';
import { cisDocuments } from './005_cis_documents.js';
import { shareLinks } from './006_share_links.js';
import { signaturesAndFolders } from './007_signatures_and_folders.js';
import { accessVersions } from './008_access_versions.js';

/**
 * drive's migrations in the order they apply. Append only: a new change is a new file, added at the end. A
 * migration's `name` is what knex records as applied, so names never change (test/migrations.test.ts).
 */
export const driveMigrations: Migration[] = [
  driveSchema,
  uploadExpiry,
  fileList,
  trashSchema,
  cisDocuments,
  shareLinks,
  signaturesAndFolders,
  accessVersions,
];
