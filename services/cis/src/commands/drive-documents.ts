import { problems } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { ReturnStore } from '../db/returns.store.js';
import { StatementStore } from '../db/statements.store.js';
import { renderStatementPdf } from '../documents/statement-pdf.js';
import { taxMonthFilePart, taxMonthName, taxMonthInSentence } from '../domain/index.js';
import { statementPdfInput } from './statements.js';

/** A document cis hands to the drive, which files it in the CIS drive's restricted library (drive ADR 0046). */
export interface DriveDocument {
  fileName: string;
  contentType: string;
  body: Buffer;
  taxMonth: string;
  /** Which version of the document this is: a statement's id, a return's IRmark (a resubmission is another). */
  ref: string;
}

const SYSTEM = 'system';

/**
 * An issued statement as the subcontractor's copy (the UTR in clear, as they were sent it), with the file name of
 * the staff download. Each copy that leaves cis is audited (ids only; ADR 0029). A statement not issued: 404.
 */
export function statementForDrive(deps: CisDeps, tenantId: string, id: string): Promise<DriveDocument> {
  return deps.inTenant(tenantId, async (trx) => {
    const row = await new StatementStore(trx).find(id);
    if (row?.status !== 'issued') throw problems.notFound('Statement not found');
    const body = await renderStatementPdf(await statementPdfInput(deps, trx, tenantId, row));
    await deps.audit.write(trx, { tenantId, userId: SYSTEM }, 'cis.statement.downloaded', {
      targetType: 'statement',
      targetId: row.id,
      taxMonth: row.taxMonth,
      summary: `Statement for ${row.subcontractorName} (${taxMonthName(row.taxMonth)}) filed in the drive`,
      details: { copy: 'subcontractor', basis: 'drive' },
    });
    return {
      fileName: `cis-statement-${taxMonthFilePart(row.taxMonth)}-${row.id}.pdf`,
      contentType: 'application/pdf',
      body,
      taxMonth: row.taxMonth,
      ref: row.id,
    };
  });
}

/** A submitted return's CIS300 document (every UTR and NINO in clear, as HMRC receives them), audited. Else 404. */
export function returnForDrive(deps: CisDeps, tenantId: string, id: string): Promise<DriveDocument> {
  return deps.inTenant(tenantId, async (trx) => {
    const row = await new ReturnStore(trx).find(id);
    if (!row?.cis300XmlEnc || !row.submissionRef) throw problems.notFound('Return not found');
    const xml = deps.sealed.open(row.cis300XmlEnc);
    await deps.audit.write(trx, { tenantId, userId: SYSTEM }, 'cis.return.downloaded', {
      targetType: 'return',
      targetId: row.id,
      taxMonth: row.taxMonth,
      summary: `CIS300 document for the ${taxMonthInSentence(row.period)} filed in the drive`,
      details: { format: 'cis300', basis: 'drive' },
    });
    return {
      fileName: `cis300-${taxMonthFilePart(row.taxMonth)}${row.amendmentOf ? '-amended' : ''}.xml`,
      contentType: 'application/xml',
      body: Buffer.from(xml, 'utf8'),
      taxMonth: row.taxMonth,
      ref: row.submissionRef,
    };
  });
}
