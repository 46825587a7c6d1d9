// The CIS module files what it issues and submits into its drive (issue 14, ADR 0046), on real PostgreSQL, Kafka and
// MinIO with cis beside the drive: each issued statement's PDF and each submitted CIS300 lands in the CIS drive's
// 'Statements and returns' library, which only holders of cis.pii.unmask can read and which never shares; a repeated
// event stores nothing twice, and a failure (cis or the object store down) is retried until the document is filed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { eventually } from '@workspace/kit/testing';
import {
  ALL_CIS_SCOPES,
  DECLARED,
  createSubcontractor,
  drainJobQueue,
  invoiceBody,
  settingsBody,
} from '@workspace/cis/testing';
import { CisClient } from '../src/clients/cis.js';
import { ObjectStore } from '../src/clients/object-store.js';
import { callerOf, readableFile } from '../src/commands/access.js';
import { fileCisDocument } from '../src/commands/cis-documents.js';
import { sha256Hex } from '../src/commands/server-files.js';
import { CisDocumentStore, type CisDocumentRecord } from '../src/db/cis-documents.store.js';
import { FileStore } from '../src/db/files.store.js';
import { LibraryStore } from '../src/db/libraries.store.js';
import {
  canCreateShareFromLibrary,
  canShareFromLibrary,
  canWriteLibrary,
  deleteRefusal,
} from '../src/domain/index.js';
import type { DriveConfig } from '../src/config.js';
import { DRIVE_ADMIN_SCOPES, startDriveWithCis, type DriveWithCisHarness } from './support.js';

const MONTH = '2025-06';
const FOLDER = 'Tax year 2025-26';
const UNMASK = [...DRIVE_ADMIN_SCOPES, 'cis.pii.unmask'];
const READER = '00000000-0000-4000-8000-0000000000b1';

/** An object store that fails on demand, as MinIO does when it is down. */
class FlakyObjects extends ObjectStore {
  failing = false;
  refused = 0;
  override async put(key: string, body: Buffer, contentType: string): Promise<void> {
    if (this.failing) {
      this.refused += 1;
      throw new Error('connect ECONNREFUSED (object store down)');
    }
    await super.put(key, body, contentType);
  }
}

/** A proxy in front of cis that answers 503 on demand, as cis does when it is down. */
const proxy = { failing: false, refused: [] as string[], server: undefined as Server | undefined };
async function startProxy(target: string): Promise<string> {
  const server = createServer((req, res) => {
    if (proxy.failing) {
      proxy.refused.push(req.url ?? '');
      res.writeHead(503).end();
      return;
    }
    void fetch(`${target}${req.url ?? ''}`, { headers: req.headers as Record<string, string> }).then(
      (answer) => {
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        if (answer.body) Readable.fromWeb(answer.body as never).pipe(res);
        else res.end();
      },
      () => res.writeHead(502).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.server = server;
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
}

let h: DriveWithCisHarness;
let flaky: FlakyObjects;
let cisAdmin: string;
const statements: string[] = [];

const filings = () => h.definition.deps().inTenant('demo', (trx) => new CisDocumentStore(trx).list());
const filingOf = async (kind: string, cisId: string): Promise<CisDocumentRecord | undefined> =>
  (await filings()).find((filing) => filing.kind === kind && filing.cisId === cisId);
const issue = (id: string) => h.cis.call(cisAdmin, 'POST', `/statements/${id}/issue`, { method: 'portal' });

beforeAll(async () => {
  h = await startDriveWithCis({
    cisUrl: startProxy,
    objects: (config: DriveConfig) => {
      flaky = new FlakyObjects(config);
      return flaky;
    },
  });
  cisAdmin = await h.cis.token(ALL_CIS_SCOPES);
  expect((await h.cis.call(cisAdmin, 'PUT', '/settings', settingsBody())).status).toBe(200);
  const invoices: string[] = [];
  for (const name of ['Sam Stone', 'Tom Tile']) {
    const sub = await createSubcontractor(h.cis, cisAdmin, { name, email: 'site@stone.test' });
    const created = await h.cis.call(
      cisAdmin,
      'POST',
      '/invoices',
      invoiceBody(sub, { invoiceDate: '2025-06-20' }),
    );
    invoices.push((created.body.invoice as { id: string }).id);
  }
  await h.cis.call(cisAdmin, 'POST', '/invoices/approve', { ids: invoices });
  await drainJobQueue(h.cis);
  await h.cis.call(cisAdmin, 'POST', '/invoices/pay', { ids: invoices, paymentDate: '2025-06-20' });
  await drainJobQueue(h.cis);
  const page = await h.cis.call(cisAdmin, 'GET', `/statements?taxMonth=${MONTH}`);
  for (const group of page.body.subcontractors as { statement: { id: string } | null }[])
    if (group.statement) statements.push(group.statement.id);
  expect(statements).toHaveLength(2);
});

afterAll(async () => {
  await h.stop();
  proxy.server?.close();
});

describe('CIS documents filed into the CIS drive', () => {
  it('files an issued statement’s PDF in the Statements and returns library, in its tax year’s folder, owned by the system', async () => {
    const [id = ''] = statements;
    // The drive's new consumer group reads what comes after it joins: issue (again) until the drive has filed it.
    const filing = await eventually(
      async () => {
        expect((await issue(id)).status).toBe(200);
        return filingOf('statement', id);
      },
      90_000,
      'the statement to be filed',
    );
    expect(filing).toMatchObject({
      kind: 'statement',
      cisId: id,
      submissionRef: id,
      taxMonth: MONTH,
      fileVersion: 1,
    });
    const stored = await h.definition.deps().inTenant('demo', async (trx) => {
      const file = await new FileStore(trx).get(filing.fileId);
      const library = file ? await new LibraryStore(trx).get(file.libraryId) : undefined;
      const folder = await trx<{ id: string; name: string }>('folders')
        .where({ id: file?.folderId ?? '' })
        .first('name');
      const drive = await trx<{ id: string; name: string; module_id: string }>('drives')
        .where({ id: file?.driveId ?? '' })
        .first('name', 'module_id');
      return { file, library, folder, drive };
    });
    expect(stored.drive).toEqual({ name: 'CIS Documents', module_id: 'cis' });
    expect(stored.library?.name).toBe('Statements and returns');
    expect(stored.folder?.name).toBe(FOLDER);
    expect(stored.file).toMatchObject({
      name: `cis-statement-month-ending-2025-07-05-${id}.pdf`,
      mimeType: 'application/pdf',
      ownerId: 'system',
      status: 'active',
    });
    const chunks: Buffer[] = [];
    for await (const chunk of await h.objects.read(stored.file?.storagePath ?? ''))
      chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(sha256Hex(bytes)).toBe(stored.file?.checksum);
    // The drive's stats count it (a drive administrator sees the tenant-wide cis drive, not its documents).
    const drive = await h.call(
      await h.token(DRIVE_ADMIN_SCOPES),
      'GET',
      `/drives/${stored.file?.driveId ?? ''}`,
    );
    expect(drive.body.drive).toMatchObject({
      name: 'CIS Documents',
      stats: { fileCount: 1, totalSize: bytes.length, lastActivity: expect.any(String) },
    });
    const audited = await h.definition
      .deps()
      .inTenant('demo', (trx) => trx('outbox').where({ type: 'drive.cis.document_filed' }).select('payload'));
    expect(audited.map((row: { payload: unknown }) => row.payload)).toContainEqual(
      expect.objectContaining({ action: 'CIS_DOCUMENT_FILED', actorId: 'system', targetId: filing.fileId }),
    );
  });

  it('stores nothing twice for a repeated event: the same statement again is already filed', async () => {
    const [id = ''] = statements;
    const cis = new CisClient(
      h.config.CIS_URL ?? '',
      h.config.CIS_DOCUMENTS_TOKEN ?? '',
      h.definition.deps().logger,
    );
    const outcome = await h.definition
      .deps()
      .inTenant('demo', (trx) => fileCisDocument(h.definition.deps(), trx, cis, 'demo', 'statement', id));
    expect(outcome).toBe('already-filed');
    expect((await filings()).filter((filing) => filing.cisId === id)).toHaveLength(1);
    const files = await h.definition
      .deps()
      .inTenant('demo', (trx) =>
        trx('files').whereILike('name', `%${id}%`).count<{ count: string }[]>('* as count'),
      );
    expect(Number(files[0]?.count)).toBe(1);
  });

  it('retries while cis is down, never dropping the document, and files it once cis answers', async () => {
    const [, id = ''] = statements;
    proxy.failing = true;
    proxy.refused = [];
    // The client tries a GET three times (its own retries): more than three refusals is the consumer trying again.
    const tries = () => proxy.refused.filter((url) => url.includes(id)).length;
    try {
      expect((await issue(id)).status).toBe(200);
      await eventually(() => Promise.resolve(tries() > 3), 60_000, 'the drive to try cis again');
      expect(await filingOf('statement', id)).toBeUndefined();
    } finally {
      proxy.failing = false;
    }
    await eventually(() => filingOf('statement', id), 60_000, 'the statement to be filed once cis answers');
  });

  it('retries while the object store is down, leaving nothing half-filed, and files the submitted CIS300 once it is back', async () => {
    const compiled = await h.cis.call(cisAdmin, 'POST', `/returns/${MONTH}/compile`);
    const returnId = (compiled.body.return as { id: string }).id;
    flaky.failing = true;
    flaky.refused = 0;
    try {
      const submitted = await h.cis.call(cisAdmin, 'POST', `/returns/${returnId}/submit`, DECLARED);
      expect(submitted.status).toBe(200);
      await eventually(
        () => Promise.resolve(flaky.refused >= 2),
        60_000,
        'the drive to try the object store twice',
      );
      expect(await filingOf('return', returnId)).toBeUndefined();
      const half = await h.definition
        .deps()
        .inTenant('demo', (trx) =>
          trx('files').whereILike('name', 'cis300-%').count<{ count: string }[]>('* as count'),
        );
      expect(Number(half[0]?.count)).toBe(0);
    } finally {
      flaky.failing = false;
    }
    const filing = await eventually(() => filingOf('return', returnId), 60_000, 'the return to be filed');
    const file = await h.definition.deps().inTenant('demo', (trx) => new FileStore(trx).get(filing.fileId));
    expect(file).toMatchObject({ name: 'cis300-month-ending-2025-07-05.xml', ownerId: 'system' });
    const chunks: Buffer[] = [];
    for await (const chunk of await h.objects.read(file?.storagePath ?? '')) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toContain('<IRenvelope');
  });

  it('keeps them from anyone without cis.pii.unmask (404, not listed), even a drive administrator', async () => {
    const all = await filings();
    expect(all.length).toBeGreaterThanOrEqual(3);
    const deps = h.definition.deps();
    const tokens = {
      viewer: await h.token(['drive.view', 'drive.read', 'drive.file.read'], 'demo', READER),
      admin: await h.token(DRIVE_ADMIN_SCOPES, 'demo', READER),
      holder: await h.token([...UNMASK], 'demo', READER),
    };
    const callers = {
      viewer: callerOf({
        tenantId: 'demo',
        userId: READER,
        role: 'standard',
        scopes: new Set(['drive.view', 'drive.read', 'drive.file.read']),
      }),
      admin: callerOf({
        tenantId: 'demo',
        userId: READER,
        role: 'standard',
        scopes: new Set(DRIVE_ADMIN_SCOPES),
      }),
      holder: callerOf({ tenantId: 'demo', userId: READER, role: 'standard', scopes: new Set(UNMASK) }),
    };
    for (const filing of all) {
      for (const who of ['viewer', 'admin'] as const)
        await expect(
          deps.inTenant('demo', (trx) => readableFile(trx, callers[who], filing.fileId)),
        ).rejects.toMatchObject({ status: 404, detail: 'File not found' });
      const opened = await deps.inTenant('demo', (trx) => readableFile(trx, callers.holder, filing.fileId));
      expect(opened.library.name).toBe('Statements and returns');
    }
    const names = async (token: string) =>
      ((await h.call(token, 'GET', '/libraries')).body.libraries as { name: string }[]).map((l) => l.name);
    expect(await names(tokens.viewer)).not.toContain('Statements and returns');
    expect(await names(tokens.admin)).not.toContain('Statements and returns');
    expect(await names(tokens.holder)).toContain('Statements and returns');
  });

  it('refuses sharing them (inside or outside the tenant), uploads into the library, deletion under legal hold, and reopening it', async () => {
    const [filing] = await filings();
    const deps = h.definition.deps();
    const library = await deps.inTenant('demo', async (trx) => {
      const file = await new FileStore(trx).get(filing?.fileId ?? '');
      return new LibraryStore(trx).get(file?.libraryId ?? '');
    });
    if (!library) throw new Error('no library');
    const superAdmin = { userId: READER, scopes: new Set<string>(['system.superadmin']), superAdmin: true };
    const holder = { userId: READER, scopes: new Set(UNMASK) };
    for (const caller of [holder, superAdmin]) {
      expect(canShareFromLibrary(caller, library)).toBe(false);
      expect(canCreateShareFromLibrary(caller, library)).toBe(false);
      expect(deleteRefusal(caller, library, { ownerId: 'system' })).toBe('legal_hold');
    }
    expect(library.shareSourcePolicy.externalAllowed).toBe(false);
    expect(
      canWriteLibrary(
        {
          userId: READER,
          scopes: new Set(DRIVE_ADMIN_SCOPES.filter((s) => s !== 'drive.file.replace_version')),
        },
        library,
      ),
    ).toBe(false);
    const reopen = await h.call(await h.token(DRIVE_ADMIN_SCOPES), 'PATCH', `/libraries/${library.id}`, {
      acl: { readScopes: ['drive.file.read'] },
      policies: { shareAllowed: true },
    });
    expect(reopen.status).toBe(404);
  });

  it('through the file routes: 404 and left out of the list without cis.pii.unmask; never shared, by link or with people', async () => {
    const ids = (await filings()).map((filing) => filing.fileId);
    const viewer = await h.token(
      ['drive.view', 'drive.read', 'drive.file.read', 'drive.file.share'],
      'demo',
      READER,
    );
    const admin = await h.token(DRIVE_ADMIN_SCOPES, 'demo', READER);
    const holder = await h.token(UNMASK, 'demo', READER);
    const [first = ''] = ids;
    for (const token of [viewer, admin]) {
      expect((await h.call(token, 'GET', `/files/${first}`)).status).toBe(404);
      expect((await h.call(token, 'GET', `/download?fileId=${first}`)).status).toBe(404);
      const listed = await h.call(token, 'GET', '/files?pageSize=200');
      expect(listed.status).toBe(200);
      const listedIds = (listed.body.items as { id: string }[]).map((item) => item.id);
      expect(ids.filter((id) => listedIds.includes(id))).toEqual([]);
    }
    const opened = await h.call(holder, 'GET', `/files/${first}`);
    expect(opened.status).toBe(200);
    const listed = await h.call(holder, 'GET', '/files?pageSize=200');
    expect((listed.body.items as { id: string }[]).map((item) => item.id)).toEqual(
      expect.arrayContaining(ids),
    );
    const libraryId = (opened.body.file as { libraryId: string }).libraryId;
    for (const visibility of ['restricted', 'tenant', 'public']) {
      const share = await h.call(holder, 'POST', '/mutations/share', {
        name: 'Statements',
        libraryId,
        fileIds: [first],
        visibility,
        allowedUids: ['00000000-0000-4000-8000-0000000000b2'],
      });
      expect([visibility, share.status]).toEqual([visibility, 403]);
    }
    const withPeople = await h.call(holder, 'POST', `/files/${first}/share-with`, {
      userIds: ['00000000-0000-4000-8000-0000000000b2'],
    });
    expect(withPeople.status).toBe(403);
    const shares = await h.call(holder, 'GET', '/shares');
    expect(shares.status).toBe(200);
    expect(shares.body.counts).toEqual({ all: 0, active: 0, expired: 0 });
  });
});
