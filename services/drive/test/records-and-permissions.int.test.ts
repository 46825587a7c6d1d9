// The file record as stored (drive.md §3), the audit event's shape, and the permission rules of §6 through the API:
// a super-administrator passes every route, manage-all purges and edits folders, a missing scope answers FORBIDDEN.
import { randomUUID } from 'node:crypto';
import { DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';
import { adminQuery, putParts, seedPlace, sha256, type Grant, type Place } from './uploads-support.js';

const UPLOADER = '00000000-0000-4000-8000-0000000000c1';
const EDITOR = '00000000-0000-4000-8000-0000000000c2';

describe('the file record, the audit event and the permission rules (drive.md §3, §6)', () => {
  let h: DriveHarness;
  let place: Place;
  let uploader: string;

  beforeAll(async () => {
    h = await startDriveHarness();
    place = await seedPlace(h);
    uploader = await h.token(DRIVE_ADMIN_SCOPES, 'demo', UPLOADER);
  });
  afterAll(async () => {
    await h.stop();
  });

  const fileRow = async (id: string) =>
    (await adminQuery(h, 'SELECT * FROM drive.files WHERE id = $1', [id]))[0] ?? {};

  /** The browser's upload through the routes: grant, parts, complete. */
  async function upload(name: string, folderId: string | null, token = uploader) {
    const bytes = Buffer.from(`contents of ${name}\n`);
    const granted = await h.call(token, 'POST', '/uploads', {
      ...place,
      folderId,
      name,
      size: bytes.length,
      mimeType: 'text/plain',
    });
    expect(granted.status).toBe(201);
    const g = granted.body as unknown as Grant;
    await putParts(g, bytes);
    const done = await h.call(token, 'POST', `/uploads/${g.uploadId}/complete`, { checksum: sha256(bytes) });
    expect(done.status).toBe(200);
    return g.fileId;
  }

  async function folder(name: string, token = uploader): Promise<string> {
    const created = await h.call(token, 'POST', '/folders/create', { driveId: place.driveId, name });
    expect(created.status).toBe(201);
    return created.body.folderId as string;
  }

  describe('the file record', () => {
    it('a file uploaded into a folder: its place and names, the uploader as owner and creator, active, scan pending', async () => {
      const folderId = await folder('Drawings');
      const fileId = await upload('Section A-A.txt', folderId);
      const row = await fileRow(fileId);
      expect(row).toMatchObject({
        drive_id: place.driveId,
        library_id: place.libraryId,
        folder_id: folderId,
        owner_id: UPLOADER,
        created_by: UPLOADER,
        updated_by: UPLOADER,
        status: 'active',
        scan_status: 'pending',
        binned_at: null,
      });
      expect(row.created_at).toBeInstanceOf(Date);
      expect(row.updated_at).toBeInstanceOf(Date);
      // The names beside the ids (driveName, libraryName, folderName) as the API answers them.
      const detail = await h.call(uploader, 'GET', `/files/${fileId}`);
      expect(detail.body.file).toMatchObject({
        driveId: place.driveId,
        libraryId: place.libraryId,
        folderId,
        folderName: 'Drawings',
        libraryName: 'Documents',
        ownerId: UPLOADER,
        status: 'active',
      });
      expect((detail.body.file as { driveName: string }).driveName).toMatch(/^Projects /);
    });

    it('soft delete marks it deleted with its time and who (binned_at, binned_by); a rename by another user moves updatedAt/By', async () => {
      const fileId = await upload('Programme.txt', null);
      const before = await fileRow(fileId);
      const editor = await h.token(DRIVE_ADMIN_SCOPES, 'demo', EDITOR);
      const renamed = await h.call(editor, 'PATCH', `/files/${fileId}`, { name: 'Programme rev B.txt' });
      expect(renamed.status).toBe(200);
      const after = await fileRow(fileId);
      expect(after).toMatchObject({ created_by: UPLOADER, updated_by: EDITOR, name: 'Programme rev B.txt' });
      expect((after.updated_at as Date).getTime()).toBeGreaterThanOrEqual(
        (before.updated_at as Date).getTime(),
      );
      expect(after.created_at).toEqual(before.created_at);

      const trashed = await h.call(editor, 'POST', '/mutations/delete', { fileId });
      expect(trashed.body).toMatchObject({ result: 'trashed' });
      const binned = await fileRow(fileId);
      expect(binned).toMatchObject({ status: 'trashed', binned_by: EDITOR });
      expect(binned.binned_at).toBeInstanceOf(Date);
    });
  });

  describe('the audit event', () => {
    it('carries tenantId, action, targetId and its payload (the outbox row of FILE_UPLOADED)', async () => {
      const fileId = await upload('Audit me.txt', null);
      const [event] = await adminQuery(
        h,
        `SELECT tenant_id, type, payload FROM drive.outbox WHERE type = 'drive.file.uploaded' AND payload->>'targetId' = $1`,
        [fileId],
      );
      expect(event).toMatchObject({
        tenant_id: 'demo',
        type: 'drive.file.uploaded',
        payload: {
          action: 'FILE_UPLOADED',
          actorId: UPLOADER,
          targetType: 'file',
          targetId: fileId,
          details: { name: 'Audit me.txt', driveId: place.driveId, libraryId: place.libraryId },
        },
      });
    });
  });

  describe('permissions through the API', () => {
    /** Status of one call, the body never awaited (the live stream route never ends). */
    async function statusOf(token: string, method: string, path: string): Promise<number> {
      const controller = new AbortController();
      const response = await fetch(`${h.driveUrl}${path}`, {
        method: method.toUpperCase(),
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(method === 'get' || method === 'delete' ? {} : { body: '{}' }),
        signal: controller.signal,
      });
      controller.abort();
      return response.status;
    }

    it('a super-administrator token passes every route of the drive (no 401 or 403 on any), where a token without scopes is refused', async () => {
      const spec = (await (await fetch(`${h.driveUrl}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { security?: unknown[]; 'x-required-scopes'?: string[] }>>;
      };
      // As identity issues it: system.superadmin expands to the star scope.
      const superAdmin = await h.token(['system.superadmin', '*'], 'demo', randomUUID());
      const nobody = await h.token([], 'demo', randomUUID());
      const routes = Object.entries(spec.paths).flatMap(([path, operations]) =>
        Object.entries(operations).map(([method, operation]) => ({
          method,
          path: path.replace(/\{[^}]+\}/g, randomUUID()),
          operation,
        })),
      );
      expect(routes.length).toBeGreaterThan(40);
      const refusedToSuperAdmin: string[] = [];
      const refusedToNobody: string[] = [];
      for (const route of routes) {
        if (route.operation.security?.length === 0) continue; // public (the share page)
        const status = await statusOf(superAdmin, route.method, route.path);
        if (status === 401 || status === 403)
          refusedToSuperAdmin.push(`${route.method} ${route.path} ${status}`);
        if ((await statusOf(nobody, route.method, route.path)) === 403) refusedToNobody.push(route.path);
      }
      expect(refusedToSuperAdmin).toEqual([]);
      expect(refusedToNobody.length).toBeGreaterThan(5);
    });

    it('manage-all alone purges a file (no hard-delete scope) and edits a folder (no folder scope)', async () => {
      const fileId = await upload('Superseded drawing.txt', null);
      const folderId = await folder('Old issue');
      const manageAll = await h.token(
        ['drive.view', 'drive.file.read', 'drive.manage_all'],
        'demo',
        randomUUID(),
      );
      const purged = await h.call(manageAll, 'POST', '/mutations/purge', { fileId });
      expect(purged.status).toBe(200);
      expect(await adminQuery(h, 'SELECT 1 FROM drive.files WHERE id = $1', [fileId])).toEqual([]);
      const edited = await h.call(manageAll, 'POST', '/folders/update', {
        driveId: place.driveId,
        folderId,
        updates: { name: 'Superseded issue', color: 'red' },
      });
      expect(edited.status).toBe(200);
      expect(edited.body.folder).toMatchObject({ name: 'Superseded issue', color: 'red' });
    });

    it('a missing scope answers 403 with the FORBIDDEN problem code, naming the scope', async () => {
      const fileId = await upload('Scoped.txt', null);
      const reader = await h.token(['drive.view', 'drive.file.read'], 'demo', UPLOADER);
      const refused = await h.call(reader, 'POST', `/files/${fileId}/references`, {
        moduleId: 'schedule',
        entityId: 'event-1',
      });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body).toMatchObject({
        status: 403,
        code: 'forbidden',
        detail: 'This requires the drive.attachment.add permission.',
      });
    });

    it('an upload needs the tenant (a token without one is refused) and a file (No file)', async () => {
      const noTenant = await h.token(DRIVE_ADMIN_SCOPES, '', UPLOADER);
      const refused = await h.call(noTenant, 'POST', '/uploads', { ...place, name: 'a.txt', size: 1 });
      expect(refused.status).toBe(401);
      const noFile = await h.call(uploader, 'POST', '/uploads', { ...place });
      expect(noFile.status).toBe(400);
      expect(noFile.body).toMatchObject({ code: 'NO_FILE', detail: 'No file' });
    });
  });
});
