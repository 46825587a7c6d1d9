// The drive dialogs' rules: the upload refusal that names no reason (drive.md §5 'This file is not allowed.'), the
// preview's metadata failure (§8 'Failed to get file metadata'), and what a reference repair counts as repaired.
import { createSHA256 } from 'hash-wasm';
import {
  FILE_NOT_ALLOWED,
  uploadFile,
  UploadRefused,
  type UploaderDeps,
} from '../../src/features/drive/upload/uploader';
import { PREVIEW_TEXTS, previewFailure } from '../../src/features/drive/preview/previewKind';
import { repairedFile } from '../../src/features/drive/upload/referenceWarning';

/** A drive whose grant answers `answer`; nothing else is reached. */
function refusingDrive(answer: Response): UploaderDeps {
  return {
    fetch: () => Promise.resolve(answer),
    putPart: () => Promise.reject(new Error('no part expected')),
    sleep: () => Promise.resolve(),
    csrfToken: () => 'csrf',
    sha256: async () => {
      const hasher = await createSHA256();
      hasher.init();
      return hasher;
    },
  };
}

const file = Object.assign(new Blob([new Uint8Array(10)], { type: 'image/png' }), { name: 'photo.png' });
const target = { driveId: 'd1', libraryId: 'l1' };
const refusal = (answer: Response) =>
  uploadFile(file, target, refusingDrive(answer), { signal: new AbortController().signal });

describe('an upload refused', () => {
  it.each([400, 413, 415, 422])(
    "without a reason of its own (%i, no detail): 'This file is not allowed.'",
    async (status) => {
      const refused = refusal(new Response('', { status }));
      await expect(refused).rejects.toBeInstanceOf(UploadRefused);
      await expect(refused).rejects.toMatchObject({ message: FILE_NOT_ALLOWED, status });
      expect(FILE_NOT_ALLOWED).toBe('This file is not allowed.');
    },
  );

  it("with its reason: the drive's message, not the fallback", async () => {
    const refused = refusal(
      Response.json(
        { status: 415, code: 'FILE_TYPE_NOT_ALLOWED', detail: 'File type not allowed' },
        { status: 415 },
      ),
    );
    await expect(refused).rejects.toMatchObject({
      message: 'File type not allowed',
      code: 'FILE_TYPE_NOT_ALLOWED',
    });
  });

  it('by the service, not because of the file (503, 401): no claim that the file is not allowed', async () => {
    await expect(refusal(new Response('', { status: 503 }))).rejects.toMatchObject({
      message: 'Failed to upload (503)',
    });
    await expect(refusal(new Response('', { status: 401 }))).rejects.toMatchObject({
      message: 'Failed to upload (401)',
    });
  });
});

describe('the preview', () => {
  it("a failed metadata lookup: 'Failed to get file metadata', with the drive's message when it gave one", () => {
    expect(PREVIEW_TEXTS).toEqual({
      unable: 'Unable to load file',
      metadataFailed: 'Failed to get file metadata',
    });
    expect(previewFailure({ status: 404, body: { status: 404, detail: 'File not found' } })).toEqual({
      reason: 'Failed to get file metadata',
      detail: 'File not found',
    });
    expect(previewFailure({ status: 502, body: undefined })).toEqual({
      reason: 'Failed to get file metadata',
    });
    // No answer at all (the network failed).
    expect(previewFailure()).toEqual({ reason: 'Failed to get file metadata' });
  });
});

describe('a reference repair of one file', () => {
  it('is repaired when the file was fixed or had nothing left to repair, failed when it is still pending', () => {
    expect(repairedFile({ fixed: ['f1'], skipped: [] }, 'f1')).toBe(true);
    expect(repairedFile({ fixed: [], skipped: ['f1'] }, 'f1')).toBe(true);
    expect(repairedFile({ fixed: [], skipped: [] }, 'f1')).toBe(false);
    expect(repairedFile({ fixed: ['f2'], skipped: [] }, 'f1')).toBe(false);
  });
});
