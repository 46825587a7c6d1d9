// State machines (spec §4): invoices, statements, returns, subcontractor verification.

import type { CisRate } from './calculation.js';

export type Transition<S> = { ok: true; to: S } | { ok: false; error: string };

// ---- Invoice -------------------------------------------------------------------------------------------

export const INVOICE_STATUSES = [
  'draft',
  'portal_draft',
  'approved',
  'paid',
  'cancelled',
  'rejected',
] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const INVOICE_ACTIONS = ['approve', 'reject', 'pay', 'cancel', 'edit', 'delete'] as const;
export type InvoiceAction = (typeof INVOICE_ACTIONS)[number];

const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  draft: 'Draft',
  portal_draft: 'Portal Pending',
  approved: 'Approved',
  paid: 'Paid',
  cancelled: 'Cancelled',
  rejected: 'Rejected',
};

export function isInvoiceStatus(value: unknown): value is InvoiceStatus {
  return typeof value === 'string' && (INVOICE_STATUSES as readonly string[]).includes(value);
}

/** A missing or unknown status is treated as draft (spec §4). */
export function normaliseInvoiceStatus(status: unknown): InvoiceStatus {
  return isInvoiceStatus(status) ? status : 'draft';
}

/** Display label: 'Portal Pending' for portal_draft; unknown or missing → 'Draft'. */
export function invoiceStatusLabel(status: unknown): string {
  return INVOICE_STATUS_LABELS[normaliseInvoiceStatus(status)];
}

export const INVOICE_TRANSITION_ERRORS = {
  approve: 'Only draft or portal-pending invoices can be approved',
  reject: 'Only portal-submitted invoices can be rejected',
  pay: 'Only approved invoices can be marked as paid',
  cancel: 'Invoice is already cancelled',
  edit: 'Only draft invoices can be edited',
  delete: 'Approved and paid invoices cannot be deleted; cancel them instead',
} as const satisfies Record<InvoiceAction, string>;

/** Cancel refuses a rejected invoice with its own words. */
export const REJECTED_NOT_CANCELLABLE = 'A rejected invoice cannot be cancelled';

/**
 * The status an action leads to (spec §4 'Invoice status', with issue 13's reject):
 * approve: draft|portal_draft → approved; reject: portal_draft → rejected (its own status, with a reason);
 * pay: approved → paid; cancel: any status except cancelled and rejected → cancelled (paid included, as the spec
 * says "any"); edit: draft only (status unchanged); delete (soft): draft, portal_draft, cancelled, rejected
 * (status unchanged).
 */
export function invoiceTransition(status: unknown, action: InvoiceAction): Transition<InvoiceStatus> {
  const from = normaliseInvoiceStatus(status);
  const fail = (): Transition<InvoiceStatus> => ({ ok: false, error: INVOICE_TRANSITION_ERRORS[action] });
  switch (action) {
    case 'approve':
      return from === 'draft' || from === 'portal_draft' ? { ok: true, to: 'approved' } : fail();
    case 'reject':
      return from === 'portal_draft' ? { ok: true, to: 'rejected' } : fail();
    case 'pay':
      return from === 'approved' ? { ok: true, to: 'paid' } : fail();
    case 'cancel':
      if (from === 'rejected') return { ok: false, error: REJECTED_NOT_CANCELLABLE };
      return from !== 'cancelled' ? { ok: true, to: 'cancelled' } : fail();
    case 'edit':
      return from === 'draft' ? { ok: true, to: from } : fail();
    case 'delete':
      return from === 'draft' || from === 'portal_draft' || from === 'cancelled' || from === 'rejected'
        ? { ok: true, to: from }
        : fail();
    default:
      return { ok: false, error: `Unknown action: ${String(action)}` };
  }
}

/** The actions allowed from a status (before permission checks). */
export function invoiceActions(status: unknown): InvoiceAction[] {
  return INVOICE_ACTIONS.filter((action) => invoiceTransition(status, action).ok);
}

/** A payment and deduction statement is required when a deduction was made (HMRC notes §1.5). */
export function statementRequired(cisDeductionP: number): boolean {
  return typeof cisDeductionP === 'number' && cisDeductionP > 0;
}

/** Only approved and paid invoices are grouped into statements (spec §4). */
export const STATEMENT_INVOICE_STATUSES: readonly InvoiceStatus[] = ['approved', 'paid'];

export interface InvoiceStatementState {
  status?: unknown;
  statement?: { required?: boolean | null; issuedAt?: string | null } | null;
  deletedAt?: string | null;
}

/** Pending statement: an approved invoice whose statement is required and has no issue date (spec §4). */
export function isStatementPending(invoice: InvoiceStatementState): boolean {
  return (
    !invoice.deletedAt &&
    normaliseInvoiceStatus(invoice.status) === 'approved' &&
    invoice.statement?.required === true &&
    !invoice.statement.issuedAt
  );
}

// ---- Subcontractor -------------------------------------------------------------------------------------

export const SUBCONTRACTOR_STATES = ['active', 'archived'] as const;
export type SubcontractorState = (typeof SUBCONTRACTOR_STATES)[number];
export const VERIFICATION_STATUSES = ['gross', 'standard', 'higher'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export const VERIFICATION_METHODS = ['online', 'phone', 'letter', 'auto'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];
export const SUBCONTRACTOR_TYPES = ['individual', 'company', 'partnership'] as const;
export type SubcontractorType = (typeof SUBCONTRACTOR_TYPES)[number];

/** A subcontractor's registered or trading address. */
export interface SubcontractorAddress {
  line1: string;
  line2: string;
  city: string;
  county: string;
  postcode: string;
  country: 'GB' | 'NI';
}

/**
 * The fields of a subcontractor's create and edit form beside its type, name, identifiers and verification: what
 * the web's form holds and the service's commands take.
 */
export interface SubcontractorContactFields {
  companyNumber: string;
  vatNumber: string;
  email: string;
  phone: string;
  mobile: string;
  registeredAddress: SubcontractorAddress;
  tradingAddress: SubcontractorAddress;
  tradingAddressSameAsRegistered: boolean;
  gdprConsent: boolean;
  marketingConsent: boolean;
  portalAccess: boolean;
  active: boolean;
}

/** A new subcontractor as an invitation names it (the invite form's fields, the invite command's input). */
export interface InviteeFields {
  name: string;
  email: string;
  type: SubcontractorType;
  utr: string;
  nino: string;
  companyNumber: string;
}

export function isVerificationStatus(value: unknown): value is VerificationStatus {
  return typeof value === 'string' && (VERIFICATION_STATUSES as readonly string[]).includes(value);
}

/** gross → 0, standard → 20, higher → 30 (spec §4; HMRC: gross, net, unmatched). Throws if unknown. */
export function verificationRate(status: VerificationStatus): CisRate {
  switch (status) {
    case 'gross':
      return 0;
    case 'standard':
      return 20;
    case 'higher':
      return 30;
    default:
      throw new Error(`Invalid verification status: ${String(status)}`);
  }
}

// ---- Statement -----------------------------------------------------------------------------------------

export const STATEMENT_STATUSES = ['none', 'generated', 'issued'] as const;
export type StatementStatus = (typeof STATEMENT_STATUSES)[number];
export const STATEMENT_ISSUE_METHODS = ['email', 'portal', 'print'] as const;
export type StatementIssueMethod = (typeof STATEMENT_ISSUE_METHODS)[number];
export type StatementAction = 'generate' | 'issue';

export interface StatementTransitionOptions {
  method?: string | null;
  subcontractorName?: string;
}

/**
 * none → generated (generate; refused when one exists: 'Statement already exists for {name} for this tax
 * month'); generated → issued (issue by email, portal or print). Re-issuing an issued statement by another
 * method is allowed (it stays issued; the invoices get the new stamp).
 */
export function statementTransition(
  status: StatementStatus | null | undefined,
  action: StatementAction,
  options: StatementTransitionOptions = {},
): Transition<StatementStatus> {
  const from: StatementStatus = status ?? 'none';
  if (action === 'generate') {
    if (from === 'none') return { ok: true, to: 'generated' };
    const name = options.subcontractorName?.trim() || 'this subcontractor';
    return { ok: false, error: `Statement already exists for ${name} for this tax month` };
  }
  if (from === 'none') return { ok: false, error: 'Statement not found' };
  const method = options.method ?? '';
  if (!(STATEMENT_ISSUE_METHODS as readonly string[]).includes(method)) {
    return { ok: false, error: 'Issue method must be email, portal or print' };
  }
  return { ok: true, to: 'issued' };
}

export type DeadlineState = 'overdue' | 'urgent' | 'pending';
/** Statement urgency threshold, days (spec §9). */
export const STATEMENT_URGENT_DAYS = 3;

/** overdue when the remaining days are negative, urgent at 3 days or fewer, otherwise pending (spec §4). */
export function statementDeadlineState(daysRemaining: number): DeadlineState {
  if (daysRemaining < 0) return 'overdue';
  if (daysRemaining <= STATEMENT_URGENT_DAYS) return 'urgent';
  return 'pending';
}

// ---- Return --------------------------------------------------------------------------------------------

export const RETURN_STATUSES = ['draft', 'ready', 'compiled', 'submitted', 'amended', 'nil'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];
export type ReturnAction = 'compile' | 'recompile' | 'submit' | 'amend' | 'unlock';

export interface ReturnState {
  id?: string;
  status: string;
  locked?: boolean | null;
  period?: { label?: string | null } | null;
}

export interface ReturnTransitionOptions {
  /** The tax month being compiled (compile without an existing return needs one). */
  taxMonth?: string | null;
  /** Number of lines a (re)compile produced: 0 gives 'nil'. */
  lineCount?: number;
  /** Submit: the validation result; issues are listed in the error. */
  validation?: { valid: boolean; issues: readonly string[] };
}

export const RETURN_MESSAGES = {
  notFound: 'Return not found',
  locked: 'Return is already locked',
  amendOnlySubmitted: 'Can only amend submitted returns',
  taxMonthRequired: 'Tax month is required',
  notLocked: 'Return is not locked',
} as const;

/**
 * 'Not compiled' for no return, 'Submitted' whatever the status when locked (issue 13: the bare 'Locked' of cis.md
 * section 4 said nothing of what happened to it), else the status itself.
 */
export function returnDisplayStatus(ret: ReturnState | null | undefined): string {
  if (!ret) return 'Not compiled';
  if (ret.locked) return 'Submitted';
  return ret.status;
}

/**
 * Return lifecycle (spec §4 'Return'): compile/recompile → draft (nil when no lines) on an unlocked or
 * missing return; submit an existing, unlocked, valid return → submitted (and locked); amend a locked
 * submitted return → a new 'amended' record; unlock (testing) a locked return → draft.
 */
export function returnTransition(
  ret: ReturnState | null | undefined,
  action: ReturnAction,
  options: ReturnTransitionOptions = {},
): Transition<ReturnStatus> {
  const compiled: ReturnStatus = options.lineCount === 0 ? 'nil' : 'draft';
  switch (action) {
    case 'compile':
    case 'recompile': {
      if (!ret) {
        if (action === 'recompile') return { ok: false, error: RETURN_MESSAGES.notFound };
        if (!options.taxMonth?.trim()) return { ok: false, error: RETURN_MESSAGES.taxMonthRequired };
        return { ok: true, to: compiled };
      }
      if (ret.locked) return { ok: false, error: RETURN_MESSAGES.locked };
      return { ok: true, to: compiled };
    }
    case 'submit': {
      if (!ret) return { ok: false, error: RETURN_MESSAGES.notFound };
      if (ret.locked) return { ok: false, error: RETURN_MESSAGES.locked };
      if (options.validation && !options.validation.valid) {
        return { ok: false, error: `Return validation failed: ${options.validation.issues.join('; ')}` };
      }
      return { ok: true, to: 'submitted' };
    }
    case 'amend': {
      if (!ret) return { ok: false, error: RETURN_MESSAGES.notFound };
      if (!ret.locked || ret.status !== 'submitted')
        return { ok: false, error: RETURN_MESSAGES.amendOnlySubmitted };
      return { ok: true, to: 'amended' };
    }
    case 'unlock': {
      if (!ret) return { ok: false, error: RETURN_MESSAGES.notFound };
      if (!ret.locked) return { ok: false, error: RETURN_MESSAGES.notLocked };
      return { ok: true, to: 'draft' };
    }
    default:
      return { ok: false, error: `Unknown action: ${String(action)}` };
  }
}

/** The id of an amendment record: '{id}-AMD-{timestamp}' (spec §4). */
export function amendmentId(id: string, timestamp: string | number): string {
  return `${id}-AMD-${String(timestamp)}`;
}

export type BadgeColour = 'green' | 'blue' | 'grey' | 'purple' | 'red';

/** paid green, approved blue, draft grey, submitted purple, any other status red (spec §4). */
export function badgeColour(status: string | null | undefined): BadgeColour {
  switch (status) {
    case 'paid':
      return 'green';
    case 'approved':
      return 'blue';
    case 'draft':
      return 'grey';
    case 'submitted':
      return 'purple';
    default:
      return 'red';
  }
}
