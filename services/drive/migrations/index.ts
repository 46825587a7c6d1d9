import type { Migration } from '@workspace/kit';
import { driveSchema } from './001_drive.js';
import { shareLinks } from './006_share_links.js';

/**
 * drive's migrations in the order they apply. Append only: a new change is a new file, added at the end. A
 * migration's `name` is what knex records as applied, so names never change (test/migrations.test.ts).
 */
export const driveMigrations: Migration[] = [driveSchema, shareLinks];
