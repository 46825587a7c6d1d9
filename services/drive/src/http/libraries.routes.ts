import type { ApiRouter, Knex, RequestContext } from '@workspace/kit';
import type { Request } from 'express';
import { callerOf, requireOwnTenant } from '../commands/access.js';
import { idempotencyKey, once } from '../commands/idempotency.js';
import {
  createLibrary,
  driveForLibraryWork,
  ensureDefaultLibrary,
  listLibraries,
  updateLibrary,
} from '../commands/libraries.js';
import { ensureModuleBaseline, getOrCreateContextLibrary } from '../commands/module-drives.js';
import { canReadLibrary } from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import { presentLibrary } from './libraries.present.js';
import {
  createLibraryBody,
  ensureDefaultBody,
  ensureDefaultResponse,
  ensureModuleBaselineBody,
  ensureModuleBaselineResponse,
  getOrCreateBody,
  getOrCreateResponse,
  librariesQuery,
  librariesResponse,
  libraryParams,
  libraryResponse,
  updateLibraryBody,
} from './libraries.schemas.js';
import { driveRouter } from './router.js';

const actorOf = (ctx: RequestContext) => ({ tenantId: ctx.tenantId, userId: ctx.userId });

/** Libraries (drive.md §3, §6, §7): the list, create and edit with ACL and policies, and the spec's ensure calls. */
export function librariesRoutes(deps: DriveDeps): ApiRouter {
  const mutate = <T>(
    ctx: RequestContext,
    req: Request,
    operation: string,
    work: (trx: Knex.Transaction) => Promise<T>,
  ) =>
    deps.inTenant(ctx.tenantId, (trx) =>
      once(trx, ctx.tenantId, idempotencyKey(req), operation, () => work(trx)),
    );

  return driveRouter(deps)
    .route({
      method: 'get',
      path: '/libraries',
      summary:
        'Libraries of the drives the caller owns or is a member of and of module drives (never personal ones), shown in the drive UI and readable by the caller',
      request: { query: librariesQuery },
      responses: { 200: { description: 'Libraries', schema: librariesResponse } },
      handler: async ({ ctx, query }) => {
        requireOwnTenant(ctx, query.tenantId);
        const found = await listLibraries(deps, callerOf(ctx), ctx.tenantId, query.driveId);
        return { libraries: found.map(({ library, drive }) => presentLibrary(library, drive?.name ?? '')) };
      },
    })
    .route({
      method: 'post',
      path: '/libraries',
      summary: 'New Library (drive.libraries.create): name, ACL scopes, policies and share-source policy',
      request: { body: createLibraryBody },
      status: 201,
      responses: {
        201: { description: 'The library', schema: libraryResponse },
        400: { description: "'Library name is required'; an extension, size or scope that is not valid" },
        403: { description: 'No permission to create libraries' },
        404: { description: 'No such drive the caller may see' },
      },
      handler: async ({ ctx, req, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        const { driveId, ...fields } = body;
        const input = { ...fields, tenantId: undefined };
        return mutate(ctx, req, 'libraries.create', async (trx) => {
          const { library, drive } = await createLibrary(
            deps,
            trx,
            callerOf(ctx),
            actorOf(ctx),
            driveId,
            input,
          );
          return { library: presentLibrary(library, drive.name), libraryId: library.id };
        });
      },
    })
    .route({
      method: 'patch',
      path: '/libraries/:id',
      summary:
        "Edit a library's name, ACL scopes and policies (drive.libraries.manage; a library the caller may read)",
      request: { params: libraryParams, body: updateLibraryBody },
      responses: {
        200: { description: 'The library', schema: libraryResponse },
        400: { description: 'A name, extension, size or scope that is not valid' },
        403: { description: 'No permission to manage libraries' },
        404: { description: 'No such library the caller may read' },
      },
      handler: async ({ ctx, req, params, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        const input = { ...body, tenantId: undefined };
        return mutate(ctx, req, 'libraries.update', async (trx) => {
          const { library, drive } = await updateLibrary(
            deps,
            trx,
            callerOf(ctx),
            actorOf(ctx),
            params.id,
            input,
          );
          return { library: presentLibrary(library, drive.name), libraryId: library.id };
        });
      },
    })
    .route({
      method: 'post',
      path: '/libraries/ensure-default',
      summary: "The drive's default library, made with the overrides when it has none (created says which)",
      request: { body: ensureDefaultBody },
      responses: {
        200: { description: 'The default library', schema: ensureDefaultResponse },
        403: { description: 'Neither drive.libraries.create nor a manager of the drive' },
        404: { description: 'No such drive the caller may see' },
      },
      handler: async ({ ctx, req, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        return mutate(ctx, req, 'libraries.ensure-default', async (trx) => {
          const drive = await driveForLibraryWork(trx, callerOf(ctx), body.driveId);
          const { library, created } = await ensureDefaultLibrary(
            deps,
            trx,
            actorOf(ctx),
            drive,
            body.overrides,
          );
          return { library: presentLibrary(library, drive.name), libraryId: library.id, created };
        });
      },
    })
    .route({
      method: 'post',
      path: '/libraries/ensure-module-baseline',
      summary: "A module drive's share library and module folders (and the CIS documents library for cis)",
      request: { body: ensureModuleBaselineBody },
      responses: {
        200: { description: 'The baseline', schema: ensureModuleBaselineResponse },
        400: { description: 'Unknown module, or the drive is not that module’s' },
        403: { description: 'Neither drive.libraries.create nor a manager of the drive' },
        404: { description: 'No such drive the caller may see' },
      },
      handler: async ({ ctx, req, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        const caller = callerOf(ctx);
        return mutate(ctx, req, 'libraries.ensure-module-baseline', async (trx) => {
          const drive = await driveForLibraryWork(trx, caller, body.driveId);
          const baseline = await ensureModuleBaseline(deps, trx, actorOf(ctx), drive, body.moduleId);
          return {
            libraryId: baseline.library.id,
            libraries: baseline.libraries
              .filter((library) => library.visibleInDriveUI && canReadLibrary(caller, library))
              .map((library) => presentLibrary(library, drive.name)),
            folders: baseline.folders,
            created: baseline.created,
          };
        });
      },
    })
    .route({
      method: 'post',
      path: '/libraries/get-or-create',
      summary:
        "A module entity's library (one per moduleKey, entityType and entityId), in the module's drive",
      request: { body: getOrCreateBody },
      responses: {
        200: { description: 'The library id (created: made by this call)', schema: getOrCreateResponse },
        400: { description: 'Unknown module' },
        403: {
          description: 'No permission to create libraries or add attachments; module drive not provisioned',
        },
      },
      handler: async ({ ctx, req, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        return mutate(ctx, req, 'libraries.get-or-create', async (trx) => {
          const { library, created } = await getOrCreateContextLibrary(
            deps,
            trx,
            callerOf(ctx),
            actorOf(ctx),
            body.context,
            body.defaults ?? {},
          );
          return { libraryId: library.id, created };
        });
      },
    });
}
