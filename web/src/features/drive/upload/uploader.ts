// The browser's side of an upload (drive.md §2, §9; docs/drive.md "Web: uploads"): ask the drive for a grant (it
// checks permission, library policy and quota first), send the bytes straight to the object store over the grant's
// presigned part URLs (5 MiB parts, each retried 3 times with a 1 s linear backoff), hash them (sha-256, computed
// incrementally as the parts are read) and register the file, which the drive checks against the stored object.
// Three files go at once. Cancel aborts the transfer and gives the grant back (DELETE /api/drive/uploads/:id).
import { UPLOAD_CONCURRENCY, UPLOAD_RETRIES, UPLOAD_RETRY_DELAY_MS } from '@workspace/drive/domain';
import type { UploadGrantResponse } from '@workspace/drive/contract';
import { createSHA256 } from 'hash-wasm';

/** Where the file goes. */
export interface UploadTarget {
  driveId: string;
  libraryId: string;
  folderId?: string | null;
  /** PDFs only: ask for signatures once uploaded. */
  requireSignatures?: boolean;
}

/** POST /api/drive/uploads's answer: the upload's id, the file's id and one presigned URL per part. */
export type UploadGrant = Pick<
  UploadGrantResponse,
  'uploadId' | 'fileId' | 'objectPath' | 'partSize' | 'parts'
>;

/** What the register call answers. */
export interface Registered {
  ok: boolean;
  /** REGISTERED, ALREADY_REGISTERED, or FILE_REF_WRITE_FAILED (registered, its module reference not written). */
  code?: string;
  message?: string;
  file?: { id: string; name: string; orphanedRef?: boolean };
}

/** The register answer's code when the file is registered but its module reference could not be written. */
export const FILE_REF_WRITE_FAILED = 'FILE_REF_WRITE_FAILED';

/** drive.md §5: a refusal of the file that names no specific reason. */
export const FILE_NOT_ALLOWED = 'This file is not allowed.';

/** The statuses with which the grant refuses the file itself (type, size, content), not the caller or the service. */
const FILE_REFUSALS = new Set([400, 413, 415, 422]);

/** A refusal by the drive (grant or register), with the drive's message verbatim and its code. */
export class UploadRefused extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly status: number,
    /** The answer carried no message of its own: `message` is the uploader's fallback. */
    readonly fallback = false,
  ) {
    super(message);
    this.name = 'UploadRefused';
  }
}

/** The user cancelled: the spec's 'Upload cancelled', stopped quietly. */
export class UploadCancelled extends Error {
  constructor() {
    super('Upload cancelled');
    this.name = 'UploadCancelled';
  }
}

export interface IncrementalHash {
  update(data: Uint8Array): unknown;
  digest(encoding: 'hex'): string;
}

/** What the uploader works with: the page's fetch, the part sender, the wait, the CSRF token, the hasher. */
export interface UploaderDeps {
  fetch: typeof fetch;
  /** PUTs one part's bytes to its presigned URL, telling the bytes sent so far; rejects on failure or abort. */
  putPart: (
    url: string,
    body: Uint8Array,
    onSent: (bytes: number) => void,
    signal: AbortSignal,
  ) => Promise<void>;
  /** Waits `ms`, or rejects when the signal aborts. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  csrfToken: () => string;
  sha256: () => Promise<IncrementalHash>;
}

export interface UploadOptions {
  signal: AbortSignal;
  /** 0-99 while the bytes go (from the bytes sent), 100 once registered. */
  onProgress?: (percent: number) => void;
}

const isAbort = (error: unknown, signal: AbortSignal) =>
  signal.aborted || (error instanceof Error && error.name === 'AbortError');

async function refusal(response: Response, fallback: string): Promise<UploadRefused> {
  let body: { detail?: unknown; code?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // not problem+json
  }
  const detail = typeof body.detail === 'string' && body.detail ? body.detail : undefined;
  return new UploadRefused(
    detail ?? fallback,
    typeof body.code === 'string' ? body.code : undefined,
    response.status,
    detail === undefined,
  );
}

async function postJson<T>(deps: UploaderDeps, url: string, body: unknown, signal: AbortSignal): Promise<T> {
  const response = await deps.fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: {
      'content-type': 'application/json',
      'x-csrf-token': deps.csrfToken(),
      'x-idempotency-key': crypto.randomUUID(),
    },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw await refusal(response, `Failed to upload (${response.status})`);
  return (await response.json()) as T;
}

/** Sends one part, retrying a failure UPLOAD_RETRIES times after 1 s, 2 s, 3 s. */
async function sendPart(
  deps: UploaderDeps,
  url: string,
  bytes: Uint8Array,
  onSent: (bytes: number) => void,
  signal: AbortSignal,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await deps.putPart(url, bytes, onSent, signal);
      return;
    } catch (error) {
      if (isAbort(error, signal)) throw new UploadCancelled();
      onSent(0);
      if (attempt >= UPLOAD_RETRIES) throw error;
      await deps.sleep(UPLOAD_RETRY_DELAY_MS * (attempt + 1), signal);
    }
  }
}

/** Gives a grant back after Cancel (best effort: the drive's cleanup takes what is left). */
async function giveBack(deps: UploaderDeps, uploadId: string): Promise<void> {
  try {
    await deps.fetch(`/api/drive/uploads/${encodeURIComponent(uploadId)}`, {
      method: 'DELETE',
      credentials: 'same-origin',
      headers: { 'x-csrf-token': deps.csrfToken() },
    });
  } catch {
    // the upload-cleanup worker aborts expired grants
  }
}

/** Uploads one file: grant, parts (hashed as read), register. Resolves with the registered file. */
export async function uploadFile(
  file: Blob & { name: string },
  target: UploadTarget,
  deps: UploaderDeps,
  { signal, onProgress }: UploadOptions,
): Promise<Registered> {
  if (signal.aborted) throw new UploadCancelled();
  const mimeType = file.type || 'application/octet-stream';
  // The hasher first: a browser that cannot hash (WebAssembly refused) fails before a grant is taken.
  const hash = await deps.sha256();
  let grant: UploadGrant;
  try {
    grant = await postJson<UploadGrant>(
      deps,
      '/api/drive/uploads',
      {
        driveId: target.driveId,
        libraryId: target.libraryId,
        folderId: target.folderId ?? null,
        name: file.name,
        size: file.size,
        mimeType,
        requireSignatures: target.requireSignatures ?? false,
      },
      signal,
    );
  } catch (error) {
    if (isAbort(error, signal)) throw new UploadCancelled();
    if (error instanceof UploadRefused && error.fallback && FILE_REFUSALS.has(error.status))
      throw new UploadRefused(FILE_NOT_ALLOWED, error.code, error.status);
    throw error;
  }
  try {
    let done = 0;
    let reported = -1;
    const report = (sentOfPart: number) => {
      const percent = file.size === 0 ? 0 : Math.min(99, Math.floor(((done + sentOfPart) * 100) / file.size));
      if (percent !== reported) {
        reported = percent;
        onProgress?.(percent);
      }
    };
    report(0);
    const parts = [...grant.parts].sort((a, b) => a.partNumber - b.partNumber);
    for (const part of parts) {
      const start = (part.partNumber - 1) * grant.partSize;
      const bytes = new Uint8Array(await file.slice(start, start + grant.partSize).arrayBuffer());
      hash.update(bytes);
      await sendPart(deps, part.url, bytes, report, signal);
      done += bytes.byteLength;
      report(0);
    }
    const registered = await postJson<Registered>(
      deps,
      '/api/drive/files/register',
      {
        fileId: grant.fileId,
        driveId: target.driveId,
        uploadId: grant.uploadId,
        canonicalFile: {
          name: file.name,
          libraryId: target.libraryId,
          folderId: target.folderId ?? null,
          mimeType,
        },
        version: { objectPath: grant.objectPath, checksum: hash.digest('hex'), size: file.size },
      },
      signal,
    );
    if (!registered.ok)
      throw new UploadRefused('Upload completed but file metadata not found', registered.code, 200);
    onProgress?.(100);
    return registered;
  } catch (error) {
    if (isAbort(error, signal) || error instanceof UploadCancelled) {
      await giveBack(deps, grant.uploadId);
      throw new UploadCancelled();
    }
    throw error;
  }
}

export type UploadOutcome =
  | { status: 'complete'; registered: Registered }
  | { status: 'error'; error: Error }
  | { status: 'cancelled' };

/** Uploads several files, UPLOAD_CONCURRENCY at a time; each outcome in the files' order. */
export async function uploadFiles(
  files: readonly (Blob & { name: string })[],
  target: UploadTarget,
  deps: UploaderDeps,
  options: { signal: AbortSignal; onProgress?: (index: number, percent: number) => void },
  concurrency = UPLOAD_CONCURRENCY,
): Promise<UploadOutcome[]> {
  const outcomes: UploadOutcome[] = new Array<UploadOutcome>(files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const index = next++;
      const file = files[index];
      if (!file) continue;
      try {
        const registered = await uploadFile(file, target, deps, {
          signal: options.signal,
          onProgress: (percent) => options.onProgress?.(index, percent),
        });
        outcomes[index] = { status: 'complete', registered };
      } catch (error) {
        outcomes[index] =
          error instanceof UploadCancelled
            ? { status: 'cancelled' }
            : { status: 'error', error: error instanceof Error ? error : new Error(String(error)) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
  return outcomes;
}

/** Sends a part with XMLHttpRequest: the only browser API that reports the bytes of a request body as they go. */
export function xhrPutPart(
  url: string,
  body: Uint8Array,
  onSent: (bytes: number) => void,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    const abort = () => {
      request.abort();
    };
    request.open('PUT', url);
    request.upload.onprogress = (event) => {
      onSent(event.loaded);
    };
    request.onload = () => {
      signal.removeEventListener('abort', abort);
      if (request.status >= 200 && request.status < 300) resolve();
      else reject(new Error(`Part upload failed (${request.status})`));
    };
    request.onerror = () => {
      signal.removeEventListener('abort', abort);
      reject(new Error('Part upload failed (network)'));
    };
    request.onabort = () => {
      signal.removeEventListener('abort', abort);
      reject(new DOMException('Upload cancelled', 'AbortError'));
    };
    signal.addEventListener('abort', abort, { once: true });
    request.send(body as Uint8Array<ArrayBuffer>);
  });
}

/** A wait that an abort cuts short. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new DOMException('Upload cancelled', 'AbortError'));
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(new DOMException('Upload cancelled', 'AbortError'));
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

/** The uploader as the page uses it: the browser's fetch and XHR, real timers, hash-wasm's sha-256. */
export function browserUploaderDeps(csrfToken: () => string): UploaderDeps {
  return {
    fetch: (input, init) => fetch(input, init),
    putPart: xhrPutPart,
    sleep: abortableSleep,
    csrfToken,
    sha256: async () => {
      const hasher = await createSHA256();
      hasher.init();
      return hasher;
    },
  };
}
