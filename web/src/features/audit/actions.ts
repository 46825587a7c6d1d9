// The audit actions the action filter suggests (workspace.md §7 "Audit actions", cis.md §7, drive.md §7); the filter
// takes any other action name typed in full as well (the services record more, e.g. cis.pii.unmasked).

const cis = [
  'cis.subcontractor.created',
  'cis.subcontractor.updated',
  'cis.subcontractor.verified',
  'cis.subcontractor.deleted',
  'cis.invoice.created',
  'cis.invoice.approved',
  'cis.invoice.paid',
  'cis.invoice.cancelled',
  'cis.invoice.bulk.approve',
  'cis.invoice.bulk.pay',
  'cis.invoice.bulk.delete',
  'cis.statement.generated',
  'cis.statement.sent',
  'cis.return.compiled',
  'cis.return.submitted',
  'cis.return.exported',
  'cis.settings.updated',
  'cis.module.activated',
  'cis.module.deactivated',
  'cis.import.invoices',
  'cis.export.invoices',
  'cis.export.subcontractors',
  'cis.export.return',
  'cis.error',
  'cis.permission.denied',
];

const drive = [
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
  'SHARE_CREATED',
  'SHARE_ACCESSED',
  'SHARE_LINK_COPIED',
  'SHARE_EXPIRED',
  'SHARE_REVOKED',
  'SHARE_REBUILT',
  'SHARE_VIEWED',
  'SHARE_DOWNLOADED',
  'SHARE_UNAUTHORIZED_ACCESS',
  'SHARE_PASSCODE_FAILED',
];

/** The suggestions for the modules the reader may see ('all', or their module ids). */
export function suggestedActions(modules: 'all' | string[]): string[] {
  const offered = [
    ...(modules === 'all' || modules.includes('cis') ? cis : []),
    ...(modules === 'all' || modules.includes('drive') ? drive : []),
  ];
  return offered;
}
