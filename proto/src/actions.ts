// The audit action names the services publish (`@workspace/proto/actions`): plain strings, browser-safe, with no
// protobuf descriptors, so the web's audit log lists them from the same declaration the services publish them by
// (the package's main entry builds each action's event definition from these lists).

/**
 * The audit actions of cis.md section 7, each its own CloudEvents type on cis.events.v1, and three more for reads
 * of identifiers in clear (ADR 0029): cis.pii.unmasked, cis.statement.downloaded, cis.return.downloaded.
 */
export const cisAuditActions = [
  'cis.subcontractor.created',
  'cis.subcontractor.updated',
  'cis.subcontractor.verified',
  'cis.subcontractor.archived',
  'cis.subcontractor.deleted',
  'cis.subcontractor.invited',
  'cis.pii.unmasked',
  // Not in cis.md: an edit that ends a subcontractor's portal access (portal access off, or archived by the edit);
  // identity ends their portal sessions and links, as for archived and deleted.
  'cis.subcontractor.portal_access_ended',
  // Not in cis.md: a duplicate merged into the record kept (issue 13, ADR 0039).
  'cis.subcontractor.merged',
  'cis.invoice.created',
  'cis.invoice.updated',
  'cis.invoice.approved',
  'cis.invoice.rejected',
  'cis.invoice.paid',
  'cis.invoice.cancelled',
  // Not in cis.md (issue 13, ADR 0037): a paid invoice's payment date corrected, with the old and the new date.
  'cis.invoice.payment_date_corrected',
  'cis.invoice.bulk.approve',
  'cis.invoice.bulk.pay',
  'cis.invoice.bulk.delete',
  'cis.subcontractor.bulk.archive',
  'cis.subcontractor.bulk.delete',
  'cis.subcontractor.bulk.verify',
  'cis.statement.generated',
  'cis.statement.bulk.generate',
  'cis.statement.sent',
  // Not in cis.md (issue 13, ADR 0037): a corrected statement made for an issued one whose month changed.
  'cis.statement.corrected',
  'cis.statement.downloaded',
  'cis.return.compiled',
  'cis.return.submitted',
  'cis.return.amended',
  'cis.return.unlocked',
  'cis.return.exported',
  'cis.return.downloaded',
  // Issue 13: a tax month marked as needing no return here (filed elsewhere, before the product, inactivity), or cleared.
  'cis.return.period_marked',
  'cis.return.period_unmarked',
  'cis.settings.updated',
  'cis.module.activated',
  'cis.module.deactivated',
  'cis.import.invoices',
  'cis.export.invoices',
  'cis.export.subcontractors',
  'cis.export.return',
  'cis.error',
  'cis.permission.denied',
] as const;
export type CisAuditAction = (typeof cisAuditActions)[number];

/**
 * cis's notices that are not audit actions of a person: a deadline of the tenant's CIS calendar due soon or overdue,
 * published once per tax month, deadline and state by cis's daily deadline scan (docs/cis.md, docs/notifications.md).
 */
export const cisNoticeActions = ['cis.deadline.alerted'] as const;
export type CisNoticeAction = (typeof cisNoticeActions)[number];

/**
 * The audit actions of drive.md §7 and the drive's own (drives, libraries, versions, storage, CIS documents filed,
 * denials), each its own CloudEvents type on drive.events.v1.
 */
export const driveAuditActions = [
  'FILE_UPLOADED',
  'FILE_DELETED',
  'FILE_TRASHED',
  'FILE_RESTORED',
  'FILE_PURGED',
  'BULK_DRIVE_DELETED',
  'BULK_DRIVE_TRASHED',
  'BULK_DRIVE_MOVED',
  'FILE_SHARED',
  'FILE_DOWNLOADED',
  'FILE_MOVED',
  'FOLDER_CREATED',
  'FOLDER_UPDATED',
  'FOLDER_DELETED',
  'SIGNATURE_REQUESTED',
  'SIGNATURE_COMPLETED',
  'SIGNATURE_DECLINED',
  'STORAGE_QUOTA_EXCEEDED',
  'DRIVE_EXPORTED',
  'SHARE_TEMPLATE_CREATED',
  'SHARE_TEMPLATE_UPDATED',
  'SHARE_TEMPLATE_DELETED',
  'SHARE_CREATED',
  'SHARE_ACCESSED',
  'SHARE_LINK_COPIED',
  'SHARE_EXPIRED',
  'SHARE_REVOKED',
  'SHARE_FILE_DOWNLOADED',
  'SHARE_REBUILT',
  'SHARE_LINK_CREATED',
  'SHARE_LINK_REVOKED',
  'SHARE_LINK_EXPIRED',
  'SHARE_VIEWED',
  'SHARE_DOWNLOADED',
  'SHARE_LINK_ACCESSED',
  'SHARE_UNAUTHORIZED_ACCESS',
  'SHARE_PASSCODE_FAILED',
  'ATTACHMENT_ANALYZED',
  'SHARE_CREATED_FROM_ANALYSIS',
  // Not in drive.md: the drive's own changes and reads of note.
  'DRIVE_CREATED',
  'DRIVE_UPDATED',
  'DRIVE_MEMBERS_CHANGED',
  'LIBRARY_CREATED',
  'LIBRARY_UPDATED',
  'FILE_RENAMED',
  'FILE_VERSION_ADDED',
  'FILE_VERSION_RESTORED',
  'FILE_PREVIEWED',
  'FILE_REFERENCE_ADDED',
  'FILE_REFERENCE_REMOVED',
  'FILE_REFERENCES_REPAIRED',
  'FILE_CONTENT_FLAGGED',
  'STORAGE_TIER_CHANGED',
  'CIS_DOCUMENT_FILED',
  'PERMISSION_DENIED',
  'SHARE_SETTINGS_CHANGED',
] as const;
export type DriveAuditAction = (typeof driveAuditActions)[number];
