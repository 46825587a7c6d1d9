import type { Migration } from '@workspace/kit';
import { notificationSchema } from './001_notification.js';
import { sealedContent } from './002_sealed_content.js';
import { inAppNotifications } from './003_in_app_notifications.js';
import { deadLetters } from './004_dead_letters.js';
import { projectRequests } from './005_project_requests.js';
import { deadLetterResends } from './006_dead_letter_resends.js';

/**
 * notification's migrations in the order they apply. Append only: a new change is a new file, added at the end. A
 * migration's `name` is what knex records as applied, so names never change (test/migrations.test.ts).
 */
export const notificationMigrations: Migration[] = [
  notificationSchema,
  sealedContent,
  inAppNotifications,
  deadLetters,
  projectRequests,
  deadLetterResends,
];
