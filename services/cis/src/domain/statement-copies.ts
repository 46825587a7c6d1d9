// Which copy of a payment and deduction statement a member of staff gets (ADR 0029). HMRC requires the full UTR on
// the statement the subcontractor receives; only holders of cis.pii.unmask ever see clear identifiers otherwise.

import type { StatementIssueMethod } from './states.js';

/**
 * - `subcontractor`: the subcontractor's copy, the UTR in full: for a holder of cis.pii.unmask (`unmask`), or for
 *   the issuer who issued this statement by print (`print-issue`: handing the paper copy over is the issue).
 * - `staff`: the UTR masked, marked 'not for issue': everyone else who may read statements.
 */
export type StatementCopy = { copy: 'subcontractor'; basis: 'unmask' | 'print-issue' } | { copy: 'staff' };

export interface StatementReader {
  userId: string;
  /** Holds cis.pii.unmask. */
  canUnmask: boolean;
  /** Holds cis.stmt.issue. */
  canIssue: boolean;
}

export function statementCopyFor(
  reader: StatementReader,
  statement: { issuedMethod: StatementIssueMethod | null; issuedBy: string | null },
): StatementCopy {
  if (reader.canUnmask) return { copy: 'subcontractor', basis: 'unmask' };
  if (reader.canIssue && statement.issuedMethod === 'print' && statement.issuedBy === reader.userId)
    return { copy: 'subcontractor', basis: 'print-issue' };
  return { copy: 'staff' };
}
