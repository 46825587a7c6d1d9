import type { Migration } from '@workspace/kit';
import { cisSchema } from './001_cis.js';
import { invoiceSearch } from './002_invoice_search.js';
import { sealedCis300 } from './003_sealed_cis300.js';
import { returnPeriods } from './004_return_periods.js';
import { returnDeclarations } from './005_return_declarations.js';
import { correctedStatements } from './006_corrected_statements.js';
import { invoiceRejection } from './007_invoice_rejection.js';
import { subcontractorIdentity } from './008_subcontractor_identity.js';
import { verificationMethodUnset } from './009_verification_method_unset.js';
import { deadlineAlerts } from './010_deadline_alerts.js';

/**
 * cis's migrations in the order they apply. Append only: a new change is a new file, added at the end. A
 * migration's `name` is what knex records as applied, so names never change (test/migrations.test.ts).
 */
export const cisMigrations: Migration[] = [
  cisSchema,
  invoiceSearch,
  sealedCis300,
  returnPeriods,
  returnDeclarations,
  correctedStatements,
  invoiceRejection,
  subcontractorIdentity,
  verificationMethodUnset,
  deadlineAlerts,
];
