import type { Migration } from '@workspace/kit';
import { driveSchema } from './001_drive.js';
import { signaturesAndFolders } from './007_signatures_and_folders.js';

/**
 * drive's migrations in the order they apply. Append only: a new change is a new file, added at the end. A
 * migration's `name` is what knex records as applied, so names never change (test/migrations.test.ts).
 */
export const driveMigrations: Migration[] = [driveSchema, signaturesAndFolders];
