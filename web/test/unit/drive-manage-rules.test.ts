// The management screens' pure rules: the words of the Access Restricted page for a denied drive action.
import { permissionAction } from '../../src/features/drive/dialogs/permissions';

describe('the Access Restricted page for a denied drive action', () => {
  it('names drive, library, file, attachment, export, backup, audit and personal-data actions in words', () => {
    expect(
      [
        'drive.drives.create',
        'drive.libraries.manage',
        'drive.file.hard_delete',
        'drive.attachment.add',
        'drive.exports.revoke',
        'backup.restore',
        'drive.audit.read',
        'drive.pii.read',
        'drive.folders.manage',
      ].map(permissionAction),
    ).toEqual([
      'create drives',
      'manage libraries',
      'permanently delete files',
      'add attachments',
      'revoke shares',
      'restore backups',
      'read the drive audit log',
      'read personal data in the drive',
      'edit or delete folders',
    ]);
  });

  it('names an unknown permission as it is', () => {
    expect(permissionAction('drive.unknown')).toBe('drive.unknown');
  });
});
