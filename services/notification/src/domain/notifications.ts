// In-app notifications (docs/notifications.md, ADR 0052): what each domain event that needs someone's action turns
// into: whom to tell, what the bell says and where its link leads. Pure: no database, no clock.

/** The kinds of in-app notification; `note.shared` is reserved for notes when they exist. */
export const NOTIFICATION_TYPES = [
  'drive.signature.requested',
  'drive.file.shared',
  'cis.invoice.awaiting_approval',
  'cis.deadline.due',
  'cis.deadline.overdue',
  'note.shared',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** One notification to create: for one person of one tenant, at most once per `sourceKey`. */
export interface NewNotification {
  tenantId: string;
  targetUid: string;
  type: NotificationType;
  subject: string;
  /** A path of the staff app (always starting with one `/`), where the bell's click leads. */
  link: string;
  /** What made it: a second event with the same key (a repeat, or another event about the same thing) adds nothing. */
  sourceKey: string;
  /** Who caused it, when a colleague did (never 'system'). */
  fromUid?: string;
  /** What it is about: e.g. file, share, signature, invoice, return, statement (a note, when notes exist). */
  subjectType?: string;
  subjectId?: string;
  subjectName?: string;
  /** The sender's own words (a share's message), when given. */
  message?: string;
}

const from = (actorId: string) => (isPerson(actorId) ? { fromUid: actorId } : {});

/** A page of the bell's list: at most this many (the API's limit caps the query). */
export const NOTIFICATIONS_PAGE_MAX = 100;
export const NOTIFICATIONS_PAGE_DEFAULT = 20;

/** The longest subject kept (a file name may be long); longer ones end with an ellipsis. */
export const SUBJECT_MAX = 300;

/** Who is not a person to tell: the system, a signed-out visitor, an empty id. */
const NOT_A_PERSON = new Set(['', 'system', 'anonymous']);

export function isPerson(uid: string): boolean {
  return !NOT_A_PERSON.has(uid.trim());
}

export function clipSubject(subject: string): string {
  const single = subject.replace(/\s+/g, ' ').trim();
  return single.length <= SUBJECT_MAX ? single : `${single.slice(0, SUBJECT_MAX - 1)}…`;
}

/** A link of the staff app: a path under the app's origin (never another origin, never `//host`). */
export function isAppLink(link: string): boolean {
  return /^\/(?!\/)[^\s\\]*$/.test(link);
}

const quoted = (name: string | undefined) => (name && name.trim() ? `“${name.trim()}”` : 'a file');

/** drive SIGNATURE_REQUESTED: the assignee is asked to sign a PDF. */
export function signatureRequested(input: {
  tenantId: string;
  taskId: string;
  assignedToUid: string;
  actorId: string;
  fileName?: string;
}): NewNotification[] {
  if (!isPerson(input.assignedToUid) || input.assignedToUid === input.actorId) return [];
  return [
    {
      tenantId: input.tenantId,
      targetUid: input.assignedToUid,
      type: 'drive.signature.requested',
      subject: clipSubject(`You are asked to sign ${quoted(input.fileName)}`),
      link: `/drive/signatures?task=${encodeURIComponent(input.taskId)}`,
      sourceKey: `drive.signature:${input.taskId}`,
      ...from(input.actorId),
      subjectType: 'signature',
      subjectId: input.taskId,
      ...(input.fileName ? { subjectName: input.fileName } : {}),
    },
  ];
}

/**
 * drive FILE_SHARED: each person a file was shared with (never the one who shared it). A share of several files
 * (one event per file, naming the share) is one notification per person; Share File with users one per file.
 */
export function fileShared(input: {
  tenantId: string;
  fileId: string;
  actorId: string;
  fileName?: string;
  userIds: readonly string[];
  shareId?: string;
  fileCount?: number;
}): NewNotification[] {
  const people = [...new Set(input.userIds.map((uid) => uid.trim()))].filter(
    (uid) => isPerson(uid) && uid !== input.actorId,
  );
  const several = input.shareId !== undefined && (input.fileCount ?? 1) > 1;
  const subject = several
    ? `Files were shared with you, starting with ${quoted(input.fileName)}`
    : `${quoted(input.fileName).replace(/^a file$/, 'A file')} was shared with you`;
  return people.map((targetUid) => ({
    tenantId: input.tenantId,
    targetUid,
    type: 'drive.file.shared',
    subject: clipSubject(subject),
    // A share opens on its own page (/share/{id}, colleagues with their session); a file among all files.
    link: input.shareId
      ? `/share/${encodeURIComponent(input.shareId)}`
      : `/drive/all?file=${encodeURIComponent(input.fileId)}`,
    sourceKey: input.shareId ? `drive.share:${input.shareId}` : `drive.file-shared:${input.fileId}`,
    ...from(input.actorId),
    subjectType: input.shareId ? 'share' : 'file',
    subjectId: input.shareId ?? input.fileId,
    ...(input.fileName ? { subjectName: input.fileName } : {}),
  }));
}

/** cis: a subcontractor submitted an invoice through the portal; everyone who may approve invoices is told. */
export function portalInvoiceSubmitted(input: {
  tenantId: string;
  invoiceId: string;
  invoiceNumber?: string;
  approvers: readonly string[];
}): NewNotification[] {
  const number = input.invoiceNumber?.trim();
  const subject = number
    ? `Portal invoice ${number} is awaiting your approval`
    : 'A portal invoice is awaiting your approval';
  return [...new Set(input.approvers)].filter(isPerson).map((targetUid) => ({
    tenantId: input.tenantId,
    targetUid,
    type: 'cis.invoice.awaiting_approval',
    subject: clipSubject(subject),
    link: `/cis/invoices/${encodeURIComponent(input.invoiceId)}`,
    sourceKey: `cis.invoice:${input.invoiceId}`,
    subjectType: 'invoice',
    subjectId: input.invoiceId,
    ...(number ? { subjectName: number } : {}),
  }));
}

export type CisDeadlineKind = 'statements' | 'filing' | 'payment';

/**
 * cis: a deadline of a tax month due soon or overdue, for the people who act on it. One notification per tax month,
 * deadline, state and person: cis may tell it every day, the bell shows it once.
 */
export function cisDeadline(input: {
  tenantId: string;
  kind: CisDeadlineKind;
  taxMonth: string;
  state: 'due' | 'overdue';
  /** cis's own sentence, e.g. "CIS300 return filing for the tax month 6 May to 5 June due in 3 days (19 June 2025)". */
  message: string;
  people: readonly string[];
}): NewNotification[] {
  const link =
    input.kind === 'statements'
      ? `/cis/statements?month=${encodeURIComponent(input.taxMonth)}`
      : `/cis/returns?month=${encodeURIComponent(input.taxMonth)}`;
  return [...new Set(input.people)].filter(isPerson).map((targetUid) => ({
    tenantId: input.tenantId,
    targetUid,
    type: input.state === 'due' ? 'cis.deadline.due' : 'cis.deadline.overdue',
    subject: clipSubject(input.message),
    link,
    sourceKey: `cis.deadline:${input.taxMonth}:${input.kind}:${input.state}`,
    subjectType: input.kind === 'statements' ? 'statements' : 'return',
    subjectId: input.taxMonth,
  }));
}
