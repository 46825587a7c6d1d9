import type { Migration } from '@workspace/kit';
import { auditSchema } from './001_audit.js';

/**
 * audit's migrations in the order they apply. Append only: a new change is a new file, added at the end. A
 * migration's `name` is what knex records as applied, so names never change (test/migrations.test.ts).
 */
export const auditMigrations: Migration[] = [auditSchema];
