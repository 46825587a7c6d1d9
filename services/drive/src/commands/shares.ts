// Shares (exports): create from one library's files, list with status counts, one share, settings, rebuild, revoke,
// link copied (drive.md §2, §5, §7, §8; docs/drive.md "Shares and public links").
import { randomUUID } from 'node:crypto';
import { HttpProblem, problems, type Knex, type RequestContext } from '@workspace/kit';
import { DriveStore, type DriveRecord } from '../db/drives.store.js';
import { FileStore } from '../db/files.store.js';
import { LibraryStore, type LibraryRecord } from '../db/libraries.store.js';
import { ShareStore, type ShareChanges, type ShareRecord } from '../db/shares.store.js';
import {
  canCreateShareFromLibrary,
  canManageShare,
  canReadFile,
  canReadLibrary,
  canSeeDrive,
  DEFAULT_REVOKE_REASON,
  driveAbilities,
  SHARE_PERMISSION_MISSING,
  SHARE_REFUSALS,
  shareFileRefusal,
  shareStatus,
  type Caller,
  type ShareRefusal,
  type ShareStatus,
  type ShareVisibility,
} from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import type { Actor } from '../events/audit.js';
import { callerOf, requireOwnTenant } from './access.js';
import { once } from './idempotency.js';
import { hashPasscode } from './share-links.js';

export const SHARE_NOT_FOUND = 'Share not found';

/** A share as the staff screens read it (the Share entity of drive.md §3, and what the owner needs to manage it). */
export interface ShareView {
  id: string;
  name: string;
  libraryId: string;
  status: ShareStatus;
  visibility: ShareVisibility;
  allowedUids: string[];
  fileCount: number;
  policy: { allowDownload: boolean; watermark: boolean; expiresAt: string | null };
  /** Whether the link asks for a passcode, and whether too many wrong ones have locked it. */
  passcode: { required: boolean; locked: boolean };
  /** The public page's path (the web puts its origin in front): /share/{id}?tenantId={tenant}. */
  url: string;
  revokedAt: string | null;
  revokeReason: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export const sharePath = (share: { id: string; tenantId: string }): string =>
  `/share/${share.id}?tenantId=${encodeURIComponent(share.tenantId)}`;

export function shareView(share: ShareRecord, now: Date, maxAttempts: number): ShareView {
  return {
    id: share.id,
    name: share.name,
    libraryId: share.libraryId,
    status: shareStatus(share, now),
    visibility: share.visibility,
    allowedUids: share.allowedUids,
    fileCount: share.fileCount,
    policy: {
      allowDownload: share.allowDownload,
      watermark: share.watermark,
      expiresAt: share.expiresAt ? share.expiresAt.toISOString() : null,
    },
    passcode: {
      required: share.passcodeHash !== null,
      locked: share.passcodeHash !== null && share.passcodeFailures >= maxAttempts,
    },
    url: sharePath(share),
    revokedAt: share.revokedAt ? share.revokedAt.toISOString() : null,
    revokeReason: share.revokeReason,
    createdBy: share.createdBy,
    createdAt: share.createdAt.toISOString(),
    updatedAt: share.updatedAt.toISOString(),
  };
}

const actorOf = (ctx: RequestContext): Actor => ({ tenantId: ctx.tenantId, userId: ctx.userId });
const SYSTEM = 'system';

/**
 * SHARE_EXPIRED (and SHARE_LINK_EXPIRED for a public link) the first time a read finds the share's expiry passed:
 * the expiry is recorded once, whoever reads first (ADR 0047: no worker, the tenant's rows are only read in it).
 */
export async function noteExpiry(deps: DriveDeps, trx: Knex.Transaction, share: ShareRecord): Promise<void> {
  const now = deps.clock.now();
  if (share.revokedAt || share.expiresAt === null || share.expiresAt.getTime() > now.getTime()) return;
  if (share.expiryRecordedAt !== null) return;
  if (!(await new ShareStore(trx).recordExpiry(share.id, now))) return;
  const actor = { tenantId: share.tenantId, userId: SYSTEM };
  const details = { expiresAt: share.expiresAt.toISOString(), visibility: share.visibility };
  await deps.audit.write(trx, actor, 'SHARE_EXPIRED', { targetType: 'share', targetId: share.id, details });
  if (share.visibility === 'public') {
    await deps.audit.write(trx, actor, 'SHARE_LINK_EXPIRED', {
      targetType: 'share',
      targetId: share.id,
      details,
    });
  }
}

/** The libraries and drives of some shares or files, each looked up once. */
class Places {
  private readonly libraries = new Map<string, Promise<LibraryRecord | undefined>>();
  private readonly drives = new Map<string, Promise<DriveRecord | undefined>>();

  constructor(private readonly trx: Knex.Transaction) {}

  library(id: string): Promise<LibraryRecord | undefined> {
    let found = this.libraries.get(id);
    if (!found) {
      found = new LibraryStore(this.trx).get(id);
      this.libraries.set(id, found);
    }
    return found;
  }

  drive(id: string): Promise<DriveRecord | undefined> {
    let found = this.drives.get(id);
    if (!found) {
      found = new DriveStore(this.trx).get(id);
      this.drives.set(id, found);
    }
    return found;
  }
}

/** Whether the caller sees the share: they made it, or they may read its library in a drive they see. */
async function seesShare(caller: Caller, share: ShareRecord, places: Places): Promise<boolean> {
  if (share.createdBy === caller.userId || caller.superAdmin === true) return true;
  const library = await places.library(share.libraryId);
  if (!library || !canReadLibrary(caller, library)) return false;
  const drive = await places.drive(library.driveId);
  return drive !== undefined && canSeeDrive(caller, drive);
}

/** A share the caller sees, its expiry noted; 404 'Share not found' otherwise (another tenant's included). */
async function visibleShare(
  deps: DriveDeps,
  trx: Knex.Transaction,
  caller: Caller,
  shareId: string,
): Promise<ShareRecord> {
  const share = isUuid(shareId) ? await new ShareStore(trx).get(shareId) : undefined;
  if (!share || !(await seesShare(caller, share, new Places(trx)))) throw problems.notFound(SHARE_NOT_FOUND);
  await noteExpiry(deps, trx, share);
  return share;
}

export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

const permissionMissing = () => new HttpProblem(403, 'share_permission_missing', SHARE_PERMISSION_MISSING);

/** 422 naming each file that cannot be shared and why (drive.md §8's reasons); nothing is created. */
export interface FileRefusal {
  fileId: string;
  reason: ShareRefusal;
}
const refused = (refusals: FileRefusal[]) =>
  new HttpProblem(
    422,
    'share_validation_failed',
    refusals.length === 1
      ? `This file cannot be shared: ${refusals[0]?.reason ?? ''}.`
      : `${String(refusals.length)} files cannot be shared.`,
    undefined,
    { refusals },
  );

/** Why each file cannot go into a share of `sourceLibraryId` with `visibility` (empty when all may). */
async function fileRefusals(
  trx: Knex.Transaction,
  caller: Caller,
  fileIds: readonly string[],
  sourceLibraryId: string,
  visibility: ShareVisibility,
): Promise<FileRefusal[]> {
  const files = new Map((await new FileStore(trx).getMany(fileIds)).map((file) => [file.id, file]));
  const places = new Places(trx);
  const refusals: FileRefusal[] = [];
  for (const fileId of fileIds) {
    const file = files.get(fileId);
    const live = file?.status === 'active' ? file : undefined;
    const library = live?.libraryId ? await places.library(live.libraryId) : undefined;
    const drive = library ? await places.drive(library.driveId) : undefined;
    const reason = shareFileRefusal({
      file: live,
      library,
      drive,
      sourceLibraryId,
      visibility,
      canRead: () =>
        live !== undefined &&
        library !== undefined &&
        drive !== undefined &&
        canReadFile(caller, drive, library, live),
    });
    if (reason) refusals.push({ fileId, reason });
  }
  return refusals;
}

export interface CreateShareInput {
  tenantId?: string | undefined;
  name: string;
  libraryId: string;
  fileIds: string[];
  visibility: ShareVisibility;
  allowedUids: string[];
  policy: { allowDownload: boolean; watermark: boolean; expiresAt: string | null };
  passcode?: string | undefined;
}

/**
 * POST /v1/mutations/share: the caller may create shares and create one from the library; each file passes the
 * share check (drive.md §5, §8) or nothing is created (422 with each file's reason). Audited SHARE_CREATED,
 * SHARE_LINK_CREATED for a public link, FILE_SHARED per file. A repeated idempotency key answers the first share.
 */
export async function createShare(
  deps: DriveDeps,
  ctx: RequestContext,
  input: CreateShareInput,
  key: string | undefined,
): Promise<ShareView> {
  requireOwnTenant(ctx, input.tenantId);
  const caller = callerOf(ctx);
  if (!driveAbilities(caller).canCreateShares) throw permissionMissing();
  const fileIds = [...new Set(input.fileIds)];
  const passcodeHash = input.passcode ? await hashPasscode(input.passcode) : null;
  return deps.inTenant(ctx.tenantId, (trx) =>
    once(trx, ctx.tenantId, key, 'share.create', async () => {
      const places = new Places(trx);
      const library = isUuid(input.libraryId) ? await places.library(input.libraryId) : undefined;
      const drive = library ? await places.drive(library.driveId) : undefined;
      if (!library || !drive || !canSeeDrive(caller, drive) || !canReadLibrary(caller, library)) {
        throw problems.notFound('Library not found');
      }
      if (!canCreateShareFromLibrary(caller, library)) throw permissionMissing();
      const refusals = await fileRefusals(trx, caller, fileIds, library.id, input.visibility);
      if (refusals.length > 0) throw refused(refusals);

      const id = randomUUID();
      const store = new ShareStore(trx);
      await store.insert(
        {
          id,
          tenantId: ctx.tenantId,
          name: input.name,
          libraryId: library.id,
          visibility: input.visibility,
          allowedUids: input.allowedUids,
          allowDownload: input.policy.allowDownload,
          watermark: input.policy.watermark,
          expiresAt: input.policy.expiresAt === null ? null : new Date(input.policy.expiresAt),
          passcodeHash,
          createdBy: ctx.userId,
        },
        fileIds,
      );
      const actor = actorOf(ctx);
      await deps.audit.write(trx, actor, 'SHARE_CREATED', {
        targetType: 'share',
        targetId: id,
        targetIds: fileIds,
        details: {
          libraryId: library.id,
          visibility: input.visibility,
          fileCount: fileIds.length,
          passcode: passcodeHash !== null,
        },
      });
      if (input.visibility === 'public') {
        await deps.audit.write(trx, actor, 'SHARE_LINK_CREATED', { targetType: 'share', targetId: id });
      }
      const files = await new FileStore(trx).getMany(fileIds);
      for (const file of files) {
        await deps.audit.write(trx, actor, 'FILE_SHARED', {
          targetType: 'file',
          targetId: file.id,
          details: {
            shareId: id,
            fileName: file.name,
            sharedWith: input.visibility === 'restricted' ? input.allowedUids.join(',') : input.visibility,
            visibility: input.visibility,
            fileCount: files.length,
          },
        });
      }
      const stored = await store.get(id);
      if (!stored) throw new Error(`share ${id} was not stored`);
      return shareView(stored, deps.clock.now(), deps.config.SHARE_PASSCODE_MAX_ATTEMPTS);
    }),
  );
}

export interface ShareList {
  items: ShareView[];
  counts: { all: number; active: number; expired: number };
}

/** GET /v1/shares: the shares the caller sees, newest change first, with the toolbar's counts per status. */
export async function listShares(
  deps: DriveDeps,
  ctx: RequestContext,
  query: {
    tenantId?: string | undefined;
    status?: ShareStatus | undefined;
    libraryId?: string | undefined;
    q?: string | undefined;
  },
): Promise<ShareList> {
  requireOwnTenant(ctx, query.tenantId);
  const caller = callerOf(ctx);
  if (!driveAbilities(caller).canView) throw problems.forbidden('You do not have access to the drive.');
  if (query.libraryId !== undefined && !isUuid(query.libraryId))
    return { items: [], counts: { all: 0, active: 0, expired: 0 } };
  return deps.inTenant(ctx.tenantId, async (trx) => {
    const places = new Places(trx);
    const shares = await new ShareStore(trx).list({
      ...(query.libraryId ? { libraryId: query.libraryId } : {}),
      ...(query.q ? { q: query.q } : {}),
    });
    const now = deps.clock.now();
    const max = deps.config.SHARE_PASSCODE_MAX_ATTEMPTS;
    const views: ShareView[] = [];
    for (const share of shares) {
      if (!(await seesShare(caller, share, places))) continue;
      await noteExpiry(deps, trx, share);
      views.push(shareView(share, now, max));
    }
    const active = views.filter((view) => view.status === 'active').length;
    return {
      items: query.status ? views.filter((view) => view.status === query.status) : views,
      counts: { all: views.length, active, expired: views.length - active },
    };
  });
}

export interface ShareDetail extends ShareView {
  /** The files in the share; `missing` when the file is gone (purged) or in the trash (Rebuild takes them out). */
  files: { id: string; name: string; size: number; mimeType: string; missing: boolean }[];
}

/** GET /v1/shares/:shareId: one share the caller sees, with its files. */
export async function getShare(
  deps: DriveDeps,
  ctx: RequestContext,
  shareId: string,
  tenantId?: string,
): Promise<ShareDetail> {
  requireOwnTenant(ctx, tenantId);
  const caller = callerOf(ctx);
  return deps.inTenant(ctx.tenantId, async (trx) => {
    const share = await visibleShare(deps, trx, caller, shareId);
    const ids = await new ShareStore(trx).fileIds(share.id);
    const files = new Map((await new FileStore(trx).getMany(ids)).map((file) => [file.id, file]));
    return {
      ...shareView(share, deps.clock.now(), deps.config.SHARE_PASSCODE_MAX_ATTEMPTS),
      files: ids.map((id) => {
        const file = files.get(id);
        return {
          id,
          name: file?.name ?? '',
          size: file?.size ?? 0,
          mimeType: file?.mimeType ?? '',
          missing: file?.status !== 'active',
        };
      }),
    };
  });
}

export interface SettingsInput {
  tenantId?: string | undefined;
  updates: {
    visibility?: ShareVisibility | undefined;
    allowedUids?: string[] | undefined;
    policy?:
      | {
          allowDownload?: boolean | undefined;
          watermark?: boolean | undefined;
          expiresAt?: string | null | undefined;
        }
      | undefined;
  };
  /** A new passcode (resets the wrong-passcode count and unlocks the link); null removes it; absent keeps it. */
  passcode?: string | null | undefined;
}

function refuseRevoked(share: ShareRecord): void {
  if (share.revokedAt) throw problems.conflict('This share has been revoked.', 'share_revoked');
}

/**
 * POST /v1/shares/:shareId/settings: visibility, allowed users, policy and passcode. Making a share public checks
 * external sharing again for each of its files. A new passcode unlocks a locked link.
 */
export async function updateShareSettings(
  deps: DriveDeps,
  ctx: RequestContext,
  shareId: string,
  input: SettingsInput,
  key: string | undefined,
): Promise<ShareView> {
  requireOwnTenant(ctx, input.tenantId);
  const caller = callerOf(ctx);
  const passcodeHash =
    input.passcode === undefined
      ? undefined
      : input.passcode === null
        ? null
        : await hashPasscode(input.passcode);
  return deps.inTenant(ctx.tenantId, (trx) =>
    once(trx, ctx.tenantId, key, `share.settings:${shareId}`, async () => {
      const share = await visibleShare(deps, trx, caller, shareId);
      if (!canManageShare(caller, share, 'settings')) throw permissionMissing();
      refuseRevoked(share);
      const store = new ShareStore(trx);
      const { updates } = input;
      const visibility = updates.visibility ?? share.visibility;
      if (visibility === 'public' && share.visibility !== 'public') {
        const refusals = (
          await fileRefusals(trx, caller, await store.fileIds(share.id), share.libraryId, 'public')
        ).filter((refusal) => refusal.reason === SHARE_REFUSALS.externalNotAllowed);
        if (refusals.length > 0) throw refused(refusals);
      }
      const changes: ShareChanges = { updatedBy: ctx.userId };
      if (updates.visibility !== undefined) changes.visibility = updates.visibility;
      if (updates.allowedUids !== undefined) changes.allowedUids = updates.allowedUids;
      if (updates.policy?.allowDownload !== undefined) changes.allowDownload = updates.policy.allowDownload;
      if (updates.policy?.watermark !== undefined) changes.watermark = updates.policy.watermark;
      if (updates.policy?.expiresAt !== undefined) {
        changes.expiresAt = updates.policy.expiresAt === null ? null : new Date(updates.policy.expiresAt);
        // A new expiry is recorded again when it passes.
        changes.expiryRecordedAt = null;
      }
      if (passcodeHash !== undefined) {
        changes.passcodeHash = passcodeHash;
        changes.passcodeFailures = 0;
      }
      await store.update(share.id, changes);
      const actor = actorOf(ctx);
      await deps.audit.write(trx, actor, 'SHARE_SETTINGS_CHANGED', {
        targetType: 'share',
        targetId: share.id,
        details: {
          visibility,
          allowDownload: changes.allowDownload,
          watermark: changes.watermark,
          expiresAt:
            changes.expiresAt === undefined ? undefined : (changes.expiresAt?.toISOString() ?? 'none'),
          passcode: passcodeHash === undefined ? undefined : passcodeHash === null ? 'removed' : 'set',
        },
      });
      if (visibility !== share.visibility) {
        if (visibility === 'public') {
          await deps.audit.write(trx, actor, 'SHARE_LINK_CREATED', {
            targetType: 'share',
            targetId: share.id,
          });
        } else if (share.visibility === 'public') {
          await deps.audit.write(trx, actor, 'SHARE_LINK_REVOKED', {
            targetType: 'share',
            targetId: share.id,
            details: { reason: `Visibility changed to ${visibility}` },
          });
        }
      }
      const stored = await store.get(share.id);
      if (!stored) throw problems.notFound(SHARE_NOT_FOUND);
      return shareView(stored, deps.clock.now(), deps.config.SHARE_PASSCODE_MAX_ATTEMPTS);
    }),
  );
}

/** POST /v1/shares/:shareId/rebuild: the purged and trashed files out of the share; 'Removed {n} missing file(s).' */
export async function rebuildShare(
  deps: DriveDeps,
  ctx: RequestContext,
  shareId: string,
  tenantId: string | undefined,
  key: string | undefined,
): Promise<{ removed: number; message: string }> {
  requireOwnTenant(ctx, tenantId);
  const caller = callerOf(ctx);
  return deps.inTenant(ctx.tenantId, (trx) =>
    once(trx, ctx.tenantId, key, `share.rebuild:${shareId}`, async () => {
      const share = await visibleShare(deps, trx, caller, shareId);
      if (!canManageShare(caller, share, 'rebuild')) throw permissionMissing();
      refuseRevoked(share);
      const removed = await new ShareStore(trx).removeMissingFiles(share.id);
      await deps.audit.write(trx, actorOf(ctx), 'SHARE_REBUILT', {
        targetType: 'share',
        targetId: share.id,
        details: { removed },
      });
      return { removed, message: `Removed ${String(removed)} missing file(s).` };
    }),
  );
}

/** POST /v1/shares/:shareId/revoke: the share and its link stop working for good (a second revoke changes nothing). */
export async function revokeShare(
  deps: DriveDeps,
  ctx: RequestContext,
  shareId: string,
  input: { tenantId?: string | undefined; reason?: string | undefined },
  key: string | undefined,
): Promise<ShareView> {
  requireOwnTenant(ctx, input.tenantId);
  const caller = callerOf(ctx);
  return deps.inTenant(ctx.tenantId, (trx) =>
    once(trx, ctx.tenantId, key, `share.revoke:${shareId}`, async () => {
      const share = await visibleShare(deps, trx, caller, shareId);
      if (!canManageShare(caller, share, 'revoke')) throw permissionMissing();
      const store = new ShareStore(trx);
      const now = deps.clock.now();
      const max = deps.config.SHARE_PASSCODE_MAX_ATTEMPTS;
      if (share.revokedAt) return shareView(share, now, max);
      const reason = input.reason?.trim() || DEFAULT_REVOKE_REASON;
      await store.update(share.id, {
        revokedAt: now,
        revokedBy: ctx.userId,
        revokeReason: reason,
        updatedBy: ctx.userId,
      });
      const actor = actorOf(ctx);
      await deps.audit.write(trx, actor, 'SHARE_REVOKED', {
        targetType: 'share',
        targetId: share.id,
        details: { reason },
      });
      if (share.visibility === 'public') {
        await deps.audit.write(trx, actor, 'SHARE_LINK_REVOKED', {
          targetType: 'share',
          targetId: share.id,
          details: { reason },
        });
      }
      const stored = await store.get(share.id);
      if (!stored) throw problems.notFound(SHARE_NOT_FOUND);
      return shareView(stored, now, max);
    }),
  );
}

/** POST /v1/shares/:shareId/link-copied: the Share Links dialog's Copy, audited SHARE_LINK_COPIED. */
export async function shareLinkCopied(
  deps: DriveDeps,
  ctx: RequestContext,
  shareId: string,
  tenantId: string | undefined,
): Promise<void> {
  requireOwnTenant(ctx, tenantId);
  const caller = callerOf(ctx);
  await deps.inTenant(ctx.tenantId, async (trx) => {
    const share = await visibleShare(deps, trx, caller, shareId);
    await deps.audit.write(trx, actorOf(ctx), 'SHARE_LINK_COPIED', {
      targetType: 'share',
      targetId: share.id,
      details: { visibility: share.visibility },
    });
  });
}
