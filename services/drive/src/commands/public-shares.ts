// The public share link (/share/{shareId}; drive.md §1, §7; ADR 0047): no staff session needed. Who gets in
// follows the share's visibility, expiry, revocation and passcode; what they get follows its download and
// watermark policy. Refusals that are audited (an outsider, a wrong passcode) commit their record before answering.
import { HttpProblem, problems, type Knex, type RequestContext } from '@workspace/kit';
import { FileStore, type FileRecord } from '../db/files.store.js';
import { LibraryStore, type LibraryRecord } from '../db/libraries.store.js';
import { ShareStore, type ShareRecord } from '../db/shares.store.js';
import {
  ANONYMOUS_VIEWER,
  PUBLIC_SHARE_TEXTS,
  WATERMARK_MAX_BYTES,
  watermarkable,
  watermarkRequired,
  watermarkText,
  type ShareVisibility,
} from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import type { Actor } from '../events/audit.js';
import { requireTenantInRegion } from './region.js';
import { passcodeMatches, type ViewerTokens } from './share-links.js';
import { isUuid, noteExpiry } from './shares.js';
import { watermarkImage, watermarkPdf } from './watermark.js';

/** Who asks for a share, and how: the share, its tenant (the link's ?tenantId=), a bearer token, a viewer token. */
export interface PublicRequest {
  shareId: string;
  tenantId: string;
  /** The signed-in visitor (an optional bearer token), if any. */
  ctx: RequestContext | undefined;
  authorization: string | undefined;
  /** The viewer token a correct passcode gave (X-Share-Token, or ?token= for links and images). */
  viewerToken: string | undefined;
}

interface Admitted {
  share: ShareRecord;
  library: LibraryRecord | undefined;
  actor: Actor;
}

type Outcome<T> = { value: T } | { refusal: HttpProblem };

const notFound = () => new HttpProblem(404, 'share_not_found', PUBLIC_SHARE_TEXTS.notFound);

/** The tools of the public share routes: the viewer tokens of this process. */
export interface PublicShareTools {
  deps: DriveDeps;
  tokens: ViewerTokens;
}

/**
 * Opens the share for `request` and runs `work` with it, in the share's tenant; an audited refusal commits its
 * record, then is thrown. The share's tenant must live in this region (421 otherwise); an unknown share, another
 * tenant's, or a malformed id is 404.
 */
async function withShare<T>(
  tools: PublicShareTools,
  request: PublicRequest,
  options: { passcode: 'check' | 'skip' },
  work: (trx: Knex.Transaction, admitted: Admitted) => Promise<Outcome<T>>,
): Promise<T> {
  const { deps } = tools;
  if (!isUuid(request.shareId)) throw notFound();
  await requireTenantInRegion(deps, request.tenantId);
  const outcome = await deps.inTenant(request.tenantId, async (trx): Promise<Outcome<T>> => {
    const admitted = await admit(tools, trx, request, options);
    if ('refusal' in admitted) return admitted;
    return work(trx, admitted.value);
  });
  if ('refusal' in outcome) throw outcome.refusal;
  return outcome.value;
}

async function admit(
  tools: PublicShareTools,
  trx: Knex.Transaction,
  request: PublicRequest,
  options: { passcode: 'check' | 'skip' },
): Promise<Outcome<Admitted>> {
  const { deps, tokens } = tools;
  const share = await new ShareStore(trx).get(request.shareId, { forUpdate: options.passcode === 'skip' });
  if (!share) return { refusal: notFound() };
  const { ctx } = request;
  const actor: Actor = { tenantId: share.tenantId, userId: ctx?.userId ?? 'anonymous' };
  if (share.revokedAt) return { refusal: new HttpProblem(410, 'share_revoked', PUBLIC_SHARE_TEXTS.revoked) };
  if (share.expiresAt !== null && share.expiresAt.getTime() <= deps.clock.now().getTime()) {
    await noteExpiry(deps, trx, share);
    return { refusal: new HttpProblem(410, 'share_expired', PUBLIC_SHARE_TEXTS.expired) };
  }

  const member = ctx !== undefined && ctx.tenantId === share.tenantId && ctx.subcontractorId === undefined;
  const outsider = async (status: 401 | 403 | 404) => {
    await deps.audit.write(trx, actor, 'SHARE_UNAUTHORIZED_ACCESS', {
      targetType: 'share',
      targetId: share.id,
      details: { visibility: share.visibility, signedIn: ctx !== undefined },
    });
    return {
      refusal:
        status === 401
          ? new HttpProblem(401, 'sign_in_required', PUBLIC_SHARE_TEXTS.signInRequired)
          : status === 403
            ? new HttpProblem(403, 'not_shared_with_you', PUBLIC_SHARE_TEXTS.notSharedWithYou)
            : notFound(),
    };
  };
  if (share.visibility === 'tenant' && !member) return outsider(ctx === undefined ? 401 : 404);
  if (share.visibility === 'restricted') {
    if (ctx === undefined) return outsider(401);
    if (!member) return outsider(404);
    if (!share.allowedUids.includes(ctx.userId) && share.createdBy !== ctx.userId) return outsider(403);
  }

  if (options.passcode === 'check' && share.passcodeHash !== null) {
    const claims = request.viewerToken
      ? tokens.verify(request.viewerToken, share.passcodeHash, deps.clock.now())
      : undefined;
    const fits =
      claims !== undefined &&
      claims.shareId === share.id &&
      claims.tenantId === share.tenantId &&
      claims.viewerId === (ctx?.userId ?? null);
    if (!fits) {
      return {
        refusal:
          share.passcodeFailures >= deps.config.SHARE_PASSCODE_MAX_ATTEMPTS
            ? locked()
            : new HttpProblem(401, 'passcode_required', PUBLIC_SHARE_TEXTS.passcodeRequired),
      };
    }
  }
  const library = await new LibraryStore(trx).get(share.libraryId);
  return { value: { share, library, actor } };
}

const locked = () => new HttpProblem(423, 'passcode_locked', PUBLIC_SHARE_TEXTS.locked);

export interface ViewerToken {
  viewerToken: string;
  expiresAt: string;
}

/**
 * POST /v1/public/shares/:shareId/unlock: a correct passcode gives a viewer token (for SHARE_VIEWER_TOKEN_TTL_MS);
 * each wrong one is counted and audited SHARE_PASSCODE_FAILED with the attempt count and whether the maximum
 * (SHARE_PASSCODE_MAX_ATTEMPTS) was reached. At the maximum the link locks until its owner sets a new passcode.
 */
export function unlockShare(
  tools: PublicShareTools,
  request: PublicRequest,
  passcode: string,
): Promise<ViewerToken> {
  const { deps, tokens } = tools;
  const max = deps.config.SHARE_PASSCODE_MAX_ATTEMPTS;
  return withShare(tools, request, { passcode: 'skip' }, async (trx, { share, actor }) => {
    const now = deps.clock.now();
    const issue = (hash: string): Outcome<ViewerToken> => {
      const expiresAt = now.getTime() + deps.config.SHARE_VIEWER_TOKEN_TTL_MS;
      const viewerToken = tokens.issue(
        { shareId: share.id, tenantId: share.tenantId, viewerId: request.ctx?.userId ?? null, expiresAt },
        hash,
      );
      return { value: { viewerToken, expiresAt: new Date(expiresAt).toISOString() } };
    };
    if (share.passcodeHash === null) return issue('');
    if (share.passcodeFailures >= max) return { refusal: locked() };
    const store = new ShareStore(trx);
    if (await passcodeMatches(passcode, share.passcodeHash)) {
      if (share.passcodeFailures > 0) await store.resetPasscodeFailures(share.id);
      return issue(share.passcodeHash);
    }
    const attempt = await store.addPasscodeFailure(share.id);
    const maxReached = attempt >= max;
    await deps.audit.write(trx, actor, 'SHARE_PASSCODE_FAILED', {
      targetType: 'share',
      targetId: share.id,
      details: { attempt, maxAttempts: max, maxReached },
    });
    return {
      refusal: maxReached
        ? locked()
        : new HttpProblem(401, 'wrong_passcode', PUBLIC_SHARE_TEXTS.wrongPasscode),
    };
  });
}

/** The public share view (GET /v1/public/shares/:shareId). */
export interface PublicShareView {
  id: string;
  name: string;
  visibility: ShareVisibility;
  policy: { allowDownload: boolean; watermark: boolean; expiresAt: string | null };
  files: { id: string; name: string; size: number; mimeType: string; typeClass: string }[];
  viewer: { signedIn: boolean; name: string };
}

/** The live files of the share (purged and trashed ones left out). */
async function liveFiles(trx: Knex.Transaction, share: ShareRecord): Promise<FileRecord[]> {
  const ids = await new ShareStore(trx).fileIds(share.id);
  const files = await new FileStore(trx).getMany(ids);
  const order = new Map(ids.map((id, index) => [id, index]));
  return files
    .filter((file) => file.status === 'active')
    .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

async function viewerName(deps: DriveDeps, request: PublicRequest): Promise<string> {
  const { ctx } = request;
  if (!ctx || !request.authorization) return ANONYMOUS_VIEWER;
  const names = await deps.identity.userNames(request.authorization, [ctx.userId]);
  return names.get(ctx.userId) ?? `User ${ctx.userId}`;
}

/** The share as its visitor sees it; audited SHARE_VIEWED, and SHARE_LINK_ACCESSED for a public link. */
export async function viewPublicShare(
  tools: PublicShareTools,
  request: PublicRequest,
): Promise<PublicShareView> {
  const { deps } = tools;
  const name = await viewerName(deps, request);
  return withShare(tools, request, { passcode: 'check' }, async (trx, { share, library, actor }) => {
    const files = await liveFiles(trx, share);
    await deps.audit.write(trx, actor, 'SHARE_VIEWED', {
      targetType: 'share',
      targetId: share.id,
      details: { visibility: share.visibility, fileCount: files.length },
    });
    if (share.visibility === 'public') {
      await deps.audit.write(trx, actor, 'SHARE_LINK_ACCESSED', { targetType: 'share', targetId: share.id });
    }
    return {
      value: {
        id: share.id,
        name: share.name,
        visibility: share.visibility,
        policy: {
          allowDownload: share.allowDownload,
          watermark: watermarkRequired(share, library),
          expiresAt: share.expiresAt ? share.expiresAt.toISOString() : null,
        },
        files: files.map((file) => ({
          id: file.id,
          name: file.name,
          size: file.size,
          mimeType: file.mimeType,
          typeClass: file.typeClass,
        })),
        viewer: { signedIn: request.ctx !== undefined, name },
      },
    };
  });
}

/** What a file route answers: a presigned URL to redirect to, or the watermarked bytes themselves. */
export type SharedFileAnswer =
  | { kind: 'redirect'; url: string }
  | {
      kind: 'bytes';
      bytes: Buffer;
      mimeType: string;
      fileName: string;
      disposition: 'inline' | 'attachment';
    };

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * A file of the share, previewed (inline) or downloaded (attachment). Download needs the share's allowDownload.
 * Under a watermark (the share's, or its library's requireWatermark) PDFs and images are marked with the viewer and
 * the time and streamed through the service; other types are refused (409 watermark_unsupported). Otherwise the
 * answer is a presigned URL of the region's object store. Audited: preview SHARE_ACCESSED; download
 * SHARE_FILE_DOWNLOADED (the file) and SHARE_DOWNLOADED (the share).
 */
export async function sharedFile(
  tools: PublicShareTools,
  request: PublicRequest,
  fileId: string,
  mode: 'preview' | 'download',
): Promise<SharedFileAnswer> {
  const { deps } = tools;
  const name = await viewerName(deps, request);
  return withShare<SharedFileAnswer>(
    tools,
    request,
    { passcode: 'check' },
    async (trx, { share, library, actor }) => {
      const file = isUuid(fileId)
        ? (await liveFiles(trx, share)).find((one) => one.id === fileId)
        : undefined;
      if (!file) return { refusal: problems.notFound('File not found') };
      if (mode === 'download' && !share.allowDownload) {
        return {
          refusal: new HttpProblem(403, 'download_not_allowed', PUBLIC_SHARE_TEXTS.downloadNotAllowed),
        };
      }
      const marked = watermarkRequired(share, library);
      const kind = watermarkable(file.mimeType);
      if (marked && !kind) {
        return {
          refusal: new HttpProblem(409, 'watermark_unsupported', PUBLIC_SHARE_TEXTS.watermarkUnsupported),
        };
      }
      if (marked && file.size > WATERMARK_MAX_BYTES) {
        return { refusal: new HttpProblem(413, 'watermark_too_large', PUBLIC_SHARE_TEXTS.watermarkTooLarge) };
      }
      const details = { fileId: file.id, fileName: file.name, watermark: marked };
      if (mode === 'preview') {
        await deps.audit.write(trx, actor, 'SHARE_ACCESSED', {
          targetType: 'share',
          targetId: share.id,
          details: { ...details, mode },
        });
      } else {
        await deps.audit.write(trx, actor, 'SHARE_FILE_DOWNLOADED', {
          targetType: 'file',
          targetId: file.id,
          details: { ...details, shareId: share.id },
        });
        await deps.audit.write(trx, actor, 'SHARE_DOWNLOADED', {
          targetType: 'share',
          targetId: share.id,
          details,
        });
      }
      const disposition = mode === 'preview' ? 'inline' : 'attachment';
      if (!marked) {
        return {
          value: {
            kind: 'redirect',
            url: await deps.objects.presignGet(file.storagePath, file.name, disposition),
          },
        };
      }
      const original = await readAll(await deps.objects.read(file.storagePath));
      const text = watermarkText(name, deps.clock.now(), share.name);
      const stamped =
        kind === 'pdf'
          ? { bytes: await watermarkPdf(original, text), mimeType: 'application/pdf' }
          : await watermarkImage(original, text);
      return { value: { kind: 'bytes', ...stamped, fileName: file.name, disposition } };
    },
  );
}
