// The drive's audit actions (drive.md §7; workspace.md "Audit actions") in the audit trail: a real path through the
// drive (or the browser's audit_logEvent) for each family, and every other action of the family by its event.
import { createHash, randomBytes } from 'node:crypto';
import { PDFDocument } from '@cantoo/pdf-lib';
import { eventually } from '@workspace/kit/testing';
import {
  DRIVE_ADMIN_SCOPES,
  insertFile,
  makePdf,
  makePlace as seedPlace,
  startDriveHarness,
  type DriveHarness,
} from '@workspace/drive/testing';
import { entriesOf, expectOneEntryPerAction, publishActions } from './families.fixtures.js';
import { ModuleEventPublisher, startAuditHarness, type AuditHarness } from './support.js';

let drive: DriveHarness;
let h: AuditHarness;
let publisher: ModuleEventPublisher;
let admin: string;
const ADMIN_ID = '00000000-0000-4000-8000-0000000000dd';
// Seeded users of the demo tenant (deploy/local/seed/demo.json), who sign in through identity for real.
const MANAGER_ID = '00000000-0000-4000-8000-000000000002'; // manager@demo.test
const ADA_ID = '00000000-0000-4000-8000-000000000001'; // admin@demo.test

beforeAll(async () => {
  drive = await startDriveHarness();
  h = await startAuditHarness({ database: drive.identity.database });
  publisher = await ModuleEventPublisher.start();
  admin = await drive.token(DRIVE_ADMIN_SCOPES);
});

afterAll(async () => {
  await publisher.close();
  await h.stop();
  await drive.stop();
});

const waitForAction = (targetId: string, action: string) =>
  eventually(
    async () =>
      (await entriesOf(h, 'demo', `&targetId=${encodeURIComponent(targetId)}`)).find(
        (entry) => entry.action === action,
      ),
    60_000,
    `${action} of ${targetId} in the audit trail`,
  );

const ok = <A extends { status: number; text: string }>(answer: A): A => {
  if (answer.status >= 300) throw new Error(`${answer.status} ${answer.text}`);
  return answer;
};

/** A drive and its default library, made through the drive's API. */
async function makePlace(): Promise<{ driveId: string; libraryId: string }> {
  const created = ok(
    await drive.call(admin, 'POST', '/drives/create', {
      drive: { name: `Audit ${randomBytes(3).toString('hex')}`, type: 'shared' },
    }),
  );
  const driveId = created.body.driveId as string;
  const library = ok(await drive.call(admin, 'POST', '/libraries/ensure-default', { driveId }));
  return { driveId, libraryId: library.body.libraryId as string };
}

/** A PDF uploaded as the browser does: the grant, its parts to the object store, complete with the checksum. */
async function uploadPdf(place: { driveId: string; libraryId: string }): Promise<string> {
  const pdf = await PDFDocument.create();
  pdf.addPage().drawText('Contract');
  const bytes = Buffer.from(await pdf.save());
  const granted = ok(
    await drive.call(admin, 'POST', '/uploads', {
      ...place,
      name: 'Contract.pdf',
      size: bytes.length,
      mimeType: 'application/pdf',
    }),
  );
  const grant = granted.body as {
    uploadId: string;
    fileId: string;
    partSize: number;
    parts: { partNumber: number; url: string }[];
  };
  for (const part of grant.parts) {
    const start = (part.partNumber - 1) * grant.partSize;
    const response = await fetch(part.url, {
      method: 'PUT',
      body: bytes.subarray(start, start + grant.partSize),
    });
    expect(response.ok).toBe(true);
  }
  ok(
    await drive.call(admin, 'POST', `/uploads/${grant.uploadId}/complete`, {
      checksum: createHash('sha256').update(bytes).digest('hex'),
    }),
  );
  return grant.fileId;
}

describe('drive actions in the audit trail', () => {
  let place: { driveId: string; libraryId: string };
  let fileId: string;

  beforeAll(async () => {
    place = await makePlace();
    fileId = await uploadPdf(place);
  });

  it('files (WS-390): an upload through the drive, the rest by their events', async () => {
    const uploaded = await waitForAction(fileId, 'FILE_UPLOADED');
    expect(uploaded).toMatchObject({ module: 'drive', source: '/workspace/drive', actorId: ADMIN_ID });
    // The file's name is a person's text: not in the entry.
    expect(JSON.stringify(uploaded.payload)).not.toContain('Contract.pdf');
    const { tenantId, ids } = await publishActions(publisher, 'drive', [
      'FILE_UPLOADED',
      'FILE_DELETED',
      'FILE_TRASHED',
      'FILE_RESTORED',
      'FILE_PURGED',
      'FILE_SHARED',
      'FILE_DOWNLOADED',
      'FILE_MOVED',
    ]);
    const entries = await eventually(async () => {
      const found = await entriesOf(h, tenantId);
      return found.length >= ids.size ? found : undefined;
    }, 60_000);
    expectOneEntryPerAction(entries, ids);
  });

  it('bulk actions and folders (WS-391): a folder created through the drive, the rest by their events', async () => {
    const created = ok(
      await drive.call(admin, 'POST', '/folders/create', { driveId: place.driveId, name: 'Invoices' }),
    );
    const folderId = ((created.body.folder as { id?: string } | undefined)?.id ??
      created.body.folderId) as string;
    expect(await waitForAction(folderId, 'FOLDER_CREATED')).toMatchObject({ actorId: ADMIN_ID });
    const { tenantId, ids } = await publishActions(publisher, 'drive', [
      'BULK_DRIVE_DELETED',
      'BULK_DRIVE_TRASHED',
      'BULK_DRIVE_MOVED',
      'FOLDER_CREATED',
      'FOLDER_UPDATED',
      'FOLDER_DELETED',
    ]);
    const entries = await eventually(async () => {
      const found = await entriesOf(h, tenantId);
      return found.length >= ids.size ? found : undefined;
    }, 60_000);
    expectOneEntryPerAction(entries, ids);
  });

  it('signatures, quota and exports (WS-392): a signature requested and declined through the drive, a drive exported in the browser (audit_logEvent), the rest by their events', async () => {
    // The drive asks identity, with the caller's own token, whether the assignee is a colleague: the people sign
    // in through identity for real (identity refuses the harness's test-issuer tokens: 401).
    const manager = await drive.signInAs('manager@demo.test');
    const ada = await drive.signInAs('admin@demo.test');
    const contracts = await seedPlace(drive, 'demo', MANAGER_ID, 'Signed contracts');
    const pdf = await insertFile(drive, 'demo', contracts, {
      name: 'Subcontract.pdf',
      bytes: await makePdf('Subcontract'),
      ownerId: MANAGER_ID,
    });
    const requested = ok(
      await drive.call(manager, 'POST', '/signatures', {
        tenantId: 'demo',
        fileId: pdf.id,
        assignedToUid: ADA_ID,
      }),
    );
    const taskId = (requested.body.task as { id: string }).id;
    ok(
      await drive.call(ada, 'POST', `/signatures/${taskId}/decline`, {
        tenantId: 'demo',
        reason: 'Wrong rates',
      }),
    );
    expect(await waitForAction(taskId, 'SIGNATURE_REQUESTED')).toMatchObject({
      module: 'drive',
      source: '/workspace/drive',
      actorId: MANAGER_ID,
    });
    const declined = await waitForAction(taskId, 'SIGNATURE_DECLINED');
    expect(declined).toMatchObject({ module: 'drive', source: '/workspace/drive', actorId: ADA_ID });
    // The reason and the file's name are a person's text: not in the entry.
    expect(JSON.stringify(declined.payload)).not.toContain('Wrong rates');
    expect(JSON.stringify(declined.payload)).not.toContain('Subcontract.pdf');

    const token = await h.token([], 'demo', ADMIN_ID);
    const exported = await h.call(token, 'POST', '/client-events', {
      action: 'DRIVE_EXPORTED',
      targetId: place.driveId,
      payload: { format: 'zip', files: 1 },
    });
    expect(exported.status).toBe(202);
    expect(await waitForAction(place.driveId, 'DRIVE_EXPORTED')).toMatchObject({
      source: 'client',
      module: 'drive',
      actorId: ADMIN_ID,
      payload: { format: 'zip', files: '1' },
    });
    const { tenantId, ids } = await publishActions(publisher, 'drive', [
      'SIGNATURE_REQUESTED',
      'SIGNATURE_COMPLETED',
      'SIGNATURE_DECLINED',
      'STORAGE_QUOTA_EXCEEDED',
      'DRIVE_EXPORTED',
    ]);
    const entries = await eventually(async () => {
      const found = await entriesOf(h, tenantId);
      return found.length >= ids.size ? found : undefined;
    }, 60_000);
    expectOneEntryPerAction(entries, ids);
  });

  it('the SHARE_* family (WS-393): a link copied in the browser (audit_logEvent), the rest by their events', async () => {
    const token = await h.token([], 'demo', ADMIN_ID);
    const copied = await h.call(token, 'POST', '/client-events', {
      action: 'SHARE_LINK_COPIED',
      targetId: `share-${fileId}`,
      payload: { fileId },
    });
    expect(copied.status).toBe(202);
    expect(await waitForAction(`share-${fileId}`, 'SHARE_LINK_COPIED')).toMatchObject({
      source: 'client',
      module: 'drive',
      actorId: ADMIN_ID,
    });
    const { tenantId, ids } = await publishActions(publisher, 'drive', [
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
      'SHARE_FILE_DOWNLOADED',
      'SHARE_LINK_CREATED',
      'SHARE_LINK_REVOKED',
      'SHARE_LINK_EXPIRED',
      'SHARE_LINK_ACCESSED',
      'SHARE_TEMPLATE_CREATED',
    ]);
    const entries = await eventually(async () => {
      const found = await entriesOf(h, tenantId);
      return found.length >= ids.size ? found : undefined;
    }, 60_000);
    expectOneEntryPerAction(entries, ids);
  });
});
