import { randomUUID } from 'node:crypto';
import type { CisDeps } from '../cis-deps.js';
import { parseImportRow, parseInvoiceCsv } from '../documents/csv-import.js';
import { InvoiceStore, type NewInvoice } from '../db/invoices.store.js';
import { SubcontractorStore, type SubcontractorRecord } from '../db/subcontractors.store.js';
import { calculateInvoice, validateInvoiceInput } from '../domain/index.js';
import type { Actor } from '../events/audit.js';
import { DUPLICATE_NUMBER, invoiceFields } from './invoices.js';

const IMPORT_CHUNK = 1_000;

export interface ImportOutcome {
  created: string[];
  /** The refused rows (1-based data row numbers) with every reason. */
  failed: { index: number; errors: string[] }[];
}

/** Finds a row's subcontractor by id, or by name (case-insensitive; more than one match is ambiguous). */
function subcontractorMatcher(subcontractors: SubcontractorRecord[]) {
  const byId = new Map(subcontractors.map((row) => [row.id, row]));
  const byName = new Map<string, SubcontractorRecord[]>();
  for (const row of subcontractors) {
    const key = row.name.trim().toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), row]);
  }
  return (ref: string): SubcontractorRecord[] =>
    byId.has(ref) ? [byId.get(ref) as SubcontractorRecord] : (byName.get(ref.toLowerCase()) ?? []);
}

/**
 * Imports invoices from CSV (cis.md section 5 'Bulk import'): each row validated; valid rows created as drafts
 * in chunks, invalid ones reported by row; one audit entry for the file.
 */
export async function importInvoices(deps: CisDeps, actor: Actor, csv: string): Promise<ImportOutcome> {
  const parsed = parseInvoiceCsv(csv);
  const failed: ImportOutcome['failed'] = [];
  for (const error of parsed.errors) {
    const index = error.row ?? 0;
    const entry = failed.find((f) => f.index === index);
    if (entry) entry.errors.push(error.message);
    else failed.push({ index, errors: [error.message] });
  }
  const created: string[] = [];
  await deps.inTenant(actor.tenantId, async (trx) => {
    const invoices = new InvoiceStore(trx);
    const matchesOf = subcontractorMatcher(await new SubcontractorStore(trx).allLive());
    // Only the numbers this file uses, looked up per subcontractor (not every invoice).
    const candidates: { subcontractorId: string; number: string }[] = [];
    for (const raw of parsed.rows) {
      const { value } = parseImportRow(raw);
      const [only, ...others] = value ? matchesOf(value.subcontractorRef.trim()) : [];
      if (value && only && others.length === 0)
        candidates.push({ subcontractorId: only.id, number: value.invoiceNumber.trim().toLowerCase() });
    }
    const taken = new Set<string>();
    for (let start = 0; start < candidates.length; start += IMPORT_CHUNK)
      for (const key of await invoices.takenNumbers(candidates.slice(start, start + IMPORT_CHUNK)))
        taken.add(key);
    const now = deps.clock.now();
    let batch: NewInvoice[] = [];
    const flush = async () => {
      await invoices.insertMany(batch);
      batch = [];
    };
    for (const [position, raw] of parsed.rows.entries()) {
      const index = parsed.rowNumbers[position] ?? position + 1;
      const { value, errors } = parseImportRow(raw);
      if (!value) {
        failed.push({ index, errors });
        continue;
      }
      const ref = value.subcontractorRef.trim();
      const matches = matchesOf(ref);
      const rowErrors = [...errors];
      const subcontractor = matches.length === 1 ? matches[0] : undefined;
      if (matches.length === 0)
        rowErrors.push(ref ? `Unknown subcontractor: ${ref}` : 'Subcontractor is required');
      else if (matches.length > 1) rowErrors.push(`More than one subcontractor is named ${ref}; use its id`);
      else if (subcontractor?.archived)
        rowErrors.push('Archived subcontractors cannot be used for new invoices');
      const input = {
        invoiceNumber: value.invoiceNumber,
        subcontractorId: subcontractor?.id ?? '',
        invoiceDate: value.invoiceDate,
        description: value.description,
        grossP: value.grossP,
        materialsP: value.materialsP,
        vatRate: value.vatRate,
        reverseCharge: value.reverseCharge,
        materialsJustification: value.materialsJustification,
      };
      const fieldErrors = validateInvoiceInput(input);
      for (const [field, message] of Object.entries(fieldErrors))
        if (!(field === 'subcontractorId' && matches.length !== 1)) rowErrors.push(message);
      if (subcontractor && taken.has(`${subcontractor.id}:${value.invoiceNumber.trim().toLowerCase()}`))
        rowErrors.push(DUPLICATE_NUMBER);
      if (rowErrors.length > 0 || !subcontractor) {
        failed.push({ index, errors: [...new Set(rowErrors)] });
        continue;
      }
      const amounts = calculateInvoice({
        grossP: value.grossP,
        materialsP: value.materialsP,
        cisRate: subcontractor.verificationRate,
        vatRate: value.vatRate,
        reverseCharge: value.reverseCharge,
      });
      if (amounts.errors.length > 0) {
        failed.push({ index, errors: amounts.errors });
        continue;
      }
      const id = randomUUID();
      taken.add(`${subcontractor.id}:${value.invoiceNumber.trim().toLowerCase()}`);
      batch.push({
        id,
        tenantId: actor.tenantId,
        ...invoiceFields({ ...input, receivedDate: null }, subcontractor, amounts),
        status: 'draft',
        source: 'import',
        createdAt: now,
        updatedAt: now,
        createdBy: actor.userId,
        updatedBy: actor.userId,
      });
      created.push(id);
      if (batch.length >= IMPORT_CHUNK) await flush();
    }
    await flush();
    failed.sort((a, b) => a.index - b.index);
    await deps.audit.write(trx, actor, 'cis.import.invoices', {
      targetType: 'import',
      summary: `${created.length} invoices imported${failed.length ? `, ${failed.length} rows refused` : ''}`,
      succeeded: created.length,
      failed: failed.length,
      details: { format: 'csv', rows: parsed.rows.length },
    });
    await deps.invoiceChanges.changed(trx, actor.tenantId, created, 'imported');
  });
  return { created, failed };
}
