// The drive's uploader (web/src/features/drive/upload/uploader.ts): grant, presigned parts with retries and a linear
// backoff, the sha-256 computed as the parts are read, register; Cancel gives the grant back; three files at once.
import { createHash } from 'node:crypto';
import { jest } from '@jest/globals';
import { createSHA256 } from 'hash-wasm';
import {
  uploadFile,
  uploadFiles,
  UploadCancelled,
  UploadRefused,
  type UploaderDeps,
  type UploadGrant,
} from '../../src/features/drive/upload/uploader';
import { uploadList, uploadStage } from '../../src/features/drive/upload/progress';

const MIB = 1024 * 1024;

const fileOf = (size: number, name = 'plan.pdf', type = 'application/pdf') => {
  const bytes = new Uint8Array(size).map((_, i) => (i * 31) % 251);
  return Object.assign(new Blob([bytes], { type }), { name });
};

interface Recorded {
  calls: { method: string; url: string; body?: unknown }[];
  puts: { url: string; size: number }[];
  sleeps: number[];
}

/** A fake drive behind `fetch`, and a part sender failing as told. */
function fakeDrive(
  options: {
    partFailures?: (url: string, attempt: number) => boolean;
    grant?: (body: { size: number; name: string }) => Response | undefined;
    register?: () => Response;
    onPut?: (url: string) => Promise<void>;
  } = {},
) {
  const recorded: Recorded = { calls: [], puts: [], sleeps: [] };
  const attempts = new Map<string, number>();
  let grants = 0;
  const deps: UploaderDeps = {
    fetch: (input, init) => {
      const url = input as string;
      const body = init?.body ? (JSON.parse(init.body as string) as unknown) : undefined;
      recorded.calls.push({ method: init?.method ?? 'GET', url, body });
      if (url === '/api/drive/uploads') {
        const request = body as { size: number; name: string };
        const refused = options.grant?.(request);
        if (refused) return Promise.resolve(refused);
        grants++;
        const partSize = 5 * MIB;
        const count = Math.max(1, Math.ceil(request.size / partSize));
        const grant: UploadGrant = {
          uploadId: `u${grants}`,
          fileId: `f${grants}`,
          objectPath: `tenants/demo/files/f${grants}/v/1`,
          partSize,
          parts: Array.from({ length: count }, (_, i) => ({
            partNumber: i + 1,
            url: `https://objects.test/u${grants}/part${i + 1}`,
          })),
        };
        return Promise.resolve(Response.json(grant));
      }
      if (url === '/api/drive/files/register')
        return Promise.resolve(
          options.register?.() ?? Response.json({ ok: true, file: { id: 'f1', name: 'plan.pdf' } }),
        );
      return Promise.resolve(new Response(null, { status: 204 }));
    },
    putPart: async (url, body, onSent, signal) => {
      const attempt = (attempts.get(url) ?? 0) + 1;
      attempts.set(url, attempt);
      await options.onPut?.(url);
      if (signal.aborted) throw new DOMException('aborted', 'AbortError');
      if (options.partFailures?.(url, attempt)) throw new Error('network');
      onSent(body.byteLength / 2);
      onSent(body.byteLength);
      recorded.puts.push({ url, size: body.byteLength });
    },
    sleep: (ms) => {
      recorded.sleeps.push(ms);
      return Promise.resolve();
    },
    csrfToken: () => 'csrf',
    sha256: async () => {
      const hasher = await createSHA256();
      hasher.init();
      return hasher;
    },
  };
  return { deps, recorded, attempts };
}

const signal = () => new AbortController().signal;
const target = { driveId: 'd1', libraryId: 'l1', folderId: null, requireSignatures: true };

describe('the drive uploader', () => {
  it('asks for a grant, sends 5 MiB parts to the presigned URLs and registers with the sha-256 of the bytes', async () => {
    const file = fileOf(12 * MIB);
    const { deps, recorded } = fakeDrive();
    await uploadFile(file, target, deps, { signal: signal() });

    expect(recorded.calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/drive/uploads',
      body: { driveId: 'd1', libraryId: 'l1', name: 'plan.pdf', size: 12 * MIB, requireSignatures: true },
    });
    expect(recorded.puts.map((put) => put.size)).toEqual([5 * MIB, 5 * MIB, 2 * MIB]);
    const expected = createHash('sha256')
      .update(new Uint8Array(await file.arrayBuffer()))
      .digest('hex');
    expect(recorded.calls.at(-1)).toMatchObject({
      url: '/api/drive/files/register',
      body: {
        fileId: 'f1',
        driveId: 'd1',
        uploadId: 'u1',
        version: { objectPath: 'tenants/demo/files/f1/v/1', checksum: expected, size: 12 * MIB },
      },
    });
  });

  it('retries a failed part 3 times after 1 s, 2 s and 3 s (linear backoff), then succeeds', async () => {
    const { deps, recorded, attempts } = fakeDrive({ partFailures: (_url, attempt) => attempt <= 3 });
    await uploadFile(fileOf(1000), target, deps, { signal: signal() });
    expect([...attempts.values()]).toEqual([4]);
    expect(recorded.sleeps).toEqual([1000, 2000, 3000]);
    expect(recorded.calls.at(-1)?.url).toBe('/api/drive/files/register');
  });

  it('gives up on a part after its 3 retries and registers nothing', async () => {
    const { deps, recorded, attempts } = fakeDrive({ partFailures: () => true });
    await expect(uploadFile(fileOf(1000), target, deps, { signal: signal() })).rejects.toThrow('network');
    expect([...attempts.values()]).toEqual([4]);
    expect(recorded.calls.some((call) => call.url === '/api/drive/files/register')).toBe(false);
  });

  it("reports real progress from the bytes sent, 100 only once registered, through the spec's stages", async () => {
    const { deps } = fakeDrive();
    const seen: number[] = [];
    await uploadFile(fileOf(10 * MIB), target, deps, {
      signal: signal(),
      onProgress: (percent) => seen.push(percent),
    });
    expect(seen).toEqual([0, 25, 50, 75, 99, 100]);
    expect(seen.map(uploadStage)).toEqual([
      'Preparing upload...',
      'Preparing upload...',
      'Transferring data...',
      'Almost there...',
      'Finalizing...',
      'Upload Complete!',
    ]);
  });

  it('Cancel aborts the transfer, gives the grant back (DELETE /api/drive/uploads/:id) and registers nothing', async () => {
    const controller = new AbortController();
    const { deps, recorded } = fakeDrive({
      onPut: (url) => {
        if (url.endsWith('part2')) controller.abort();
        return Promise.resolve();
      },
    });
    await expect(
      uploadFile(fileOf(12 * MIB), target, deps, { signal: controller.signal }),
    ).rejects.toBeInstanceOf(UploadCancelled);
    expect(recorded.calls.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/drive/uploads/u1' });
    expect(recorded.calls.some((call) => call.url === '/api/drive/files/register')).toBe(false);
  });

  it("passes the drive's refusal on verbatim with its code (STORAGE_LIMIT_EXCEEDED)", async () => {
    const detail =
      'Storage limit exceeded. You have 0 GB remaining, but this file requires 1 GB. Please upgrade your storage plan or delete some files.';
    const { deps } = fakeDrive({
      grant: () => Response.json({ status: 413, code: 'STORAGE_LIMIT_EXCEEDED', detail }, { status: 413 }),
    });
    const refused = uploadFile(fileOf(10), target, deps, { signal: signal() });
    await expect(refused).rejects.toBeInstanceOf(UploadRefused);
    await expect(refused).rejects.toMatchObject({ message: detail, code: 'STORAGE_LIMIT_EXCEEDED' });
  });

  it('uploads three files at once, never more', async () => {
    let inFlight = 0;
    let most = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { deps } = fakeDrive({
      onPut: async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        await gate;
        inFlight--;
      },
    });
    const done = uploadFiles(
      Array.from({ length: 5 }, (_, i) => fileOf(100, `f${String(i)}.txt`, 'text/plain')),
      target,
      deps,
      { signal: signal() },
    );
    // Let every upload that may start reach its first part (no clock: turns of the event loop).
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(inFlight).toBe(3);
    release();
    const outcomes = await done;
    expect(most).toBe(3);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(5).fill('complete'));
  });
});

describe('the upload progress texts and list', () => {
  it.each([
    [0, 'Preparing upload...'],
    [29, 'Preparing upload...'],
    [30, 'Transferring data...'],
    [59, 'Transferring data...'],
    [60, 'Almost there...'],
    [89, 'Almost there...'],
    [90, 'Finalizing...'],
    [99, 'Finalizing...'],
    [100, 'Upload Complete!'],
  ])('%i%% reads %s', (percent, text) => {
    expect(uploadStage(percent)).toBe(text);
  });

  it('an entry carries status, progress and message; a completed entry is cleared after 1 s, an error stays', () => {
    jest.useFakeTimers();
    try {
      let seen: ReturnType<ReturnType<typeof uploadList>['items']> = [];
      const list = uploadList((items) => {
        seen = items;
      });
      list.add({ id: 'a', name: 'a.pdf', size: 10 });
      list.add({ id: 'b', name: 'b.pdf', size: 10 });
      list.progress('a', 40);
      expect(seen[0]).toMatchObject({ status: 'uploading', progress: 40 });
      list.complete('a');
      list.fail('b', 'File type ".exe" not allowed. Allowed types: pdf');
      expect(seen.map((item) => item.status)).toEqual(['complete', 'error']);
      jest.advanceTimersByTime(999);
      expect(seen).toHaveLength(2);
      jest.advanceTimersByTime(1);
      expect(seen).toEqual([
        expect.objectContaining({
          id: 'b',
          status: 'error',
          message: 'File type ".exe" not allowed. Allowed types: pdf',
        }),
      ]);
    } finally {
      jest.useRealTimers();
    }
  });
});
