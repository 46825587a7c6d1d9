import { problems, type ApiRouter, type Knex, type RequestContext } from '@workspace/kit';
import type { Request } from 'express';
import { callerOf, requireOwnTenant } from '../commands/access.js';
import {
  changeMembers,
  createSharedDrive,
  driveWithStats,
  getDrive,
  listDrives,
  updateDrive,
  type DriveWithStats,
  type MemberChange,
} from '../commands/drives.js';
import { idempotencyKey, once } from '../commands/idempotency.js';
import { provisionModuleDrive } from '../commands/module-drives.js';
import { driveAbilities } from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import { presentDrive } from './drives.present.js';
import {
  addMembersBody,
  createDriveBody,
  driveCreatedResponse,
  driveParams,
  driveResponse,
  drivesResponse,
  memberParams,
  memberRoleBody,
  moduleParams,
  drivesTenantQuery,
  updateDriveBody,
} from './drives.schemas.js';
import { driveRouter } from './router.js';

const authorizationOf = (req: Request): string => req.headers.authorization ?? '';
const actorOf = (ctx: RequestContext) => ({ tenantId: ctx.tenantId, userId: ctx.userId });

/** Drives (drive.md §3, §5, §6, §7): the list, one drive, Create Shared Drive, Edit Drive Settings, members, module drives. */
export function drivesRoutes(deps: DriveDeps): ApiRouter {
  /** A mutation in the caller's tenant, once per idempotency key; the answer is what the first one answered. */
  const mutate = <T>(
    ctx: RequestContext,
    req: Request,
    operation: string,
    work: (trx: Knex.Transaction) => Promise<T>,
  ) =>
    deps.inTenant(ctx.tenantId, (trx) =>
      once(trx, ctx.tenantId, idempotencyKey(req), operation, () => work(trx)),
    );

  const memberChange = (ctx: RequestContext, req: Request, driveId: string, change: MemberChange) =>
    mutate(ctx, req, `drives.members.${change.action}`, async (trx) => ({
      drive: presentDrive(
        await changeMembers(deps, trx, callerOf(ctx), actorOf(ctx), authorizationOf(req), driveId, change),
      ),
    }));

  const created = (drive: DriveWithStats, wasCreated: boolean) => ({
    drive: presentDrive(drive),
    driveId: drive.id,
    created: wasCreated,
  });

  return driveRouter(deps)
    .route({
      method: 'get',
      path: '/drives',
      summary:
        "The caller's drives: those they own or are a member of, the tenant-wide module drives and their personal drive (made on first use)",
      request: { query: drivesTenantQuery },
      responses: { 200: { description: 'Drives with members, settings and stats', schema: drivesResponse } },
      handler: async ({ ctx, query }) => {
        requireOwnTenant(ctx, query.tenantId);
        const caller = callerOf(ctx);
        if (!driveAbilities(caller).canView)
          throw problems.forbidden("You don't have permission to view the drive");
        const drives = await listDrives(deps, caller, actorOf(ctx));
        return { drives: drives.map(presentDrive) };
      },
    })
    .route({
      method: 'get',
      path: '/drives/:id',
      summary: 'One drive the caller may see, with its members, settings and stats',
      request: { params: driveParams, query: drivesTenantQuery },
      responses: {
        200: { description: 'The drive', schema: driveResponse },
        404: { description: 'No such drive, or not one the caller may see' },
      },
      handler: async ({ ctx, params, query }) => {
        requireOwnTenant(ctx, query.tenantId);
        return { drive: presentDrive(await getDrive(deps, callerOf(ctx), ctx.tenantId, params.id)) };
      },
    })
    .route({
      method: 'post',
      path: '/drives/create',
      summary:
        'Create Shared Drive (drive.drives.create; quota up to the remaining capacity), or provision a module drive (drive.moduleId)',
      request: { body: createDriveBody },
      status: 201,
      responses: {
        201: {
          description: 'The drive (created false: the module drive existed)',
          schema: driveCreatedResponse,
        },
        400: {
          description:
            "'Drive name is required', 'Quota exceeds remaining capacity ({n} GB)', unknown module",
        },
        403: { description: 'No permission to create drives; module drive auto-provision off' },
      },
      handler: async ({ ctx, req, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        const caller = callerOf(ctx);
        const moduleId = body.drive.moduleId ?? (body.drive.type === 'module' ? '' : undefined);
        if (moduleId !== undefined) {
          return mutate(ctx, req, 'drives.create', async (trx) => {
            const drive = await provisionModuleDrive(deps, trx, caller, actorOf(ctx), moduleId);
            return created(await driveWithStats(trx, drive), drive.created);
          });
        }
        const { type } = body.drive;
        return mutate(ctx, req, 'drives.create', async (trx) =>
          created(
            await createSharedDrive(deps, trx, caller, actorOf(ctx), authorizationOf(req), {
              ...body.drive,
              type: type === 'custom' ? 'custom' : 'shared',
            }),
            true,
          ),
        );
      },
    })
    .route({
      method: 'post',
      path: '/drives/modules/:moduleId/ensure',
      summary:
        "The module's drive with its baseline: provisioned on first use when auto-provision is on and the caller can create or manage drives",
      request: { params: moduleParams, body: drivesTenantQuery },
      responses: {
        200: { description: 'The module drive (created: made by this call)', schema: driveCreatedResponse },
        400: { description: 'Unknown module' },
        403: { description: 'Auto-provision off, or the caller may not create or manage drives' },
      },
      handler: async ({ ctx, req, params, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        return mutate(ctx, req, 'drives.modules.ensure', async (trx) => {
          const drive = await provisionModuleDrive(deps, trx, callerOf(ctx), actorOf(ctx), params.moduleId);
          return created(await driveWithStats(trx, drive), drive.created);
        });
      },
    })
    .route({
      method: 'post',
      path: '/drives/update',
      summary:
        "Edit Drive Settings: the drive's owner or manager, or drive.drives.manage (name, description, colour, quota 1 to 1000 GB)",
      request: { body: updateDriveBody },
      responses: {
        200: { description: 'The updated drive', schema: driveResponse },
        400: { description: "'Drive name is required'; the quota out of 1 to 1000 GB" },
        403: { description: 'Not a manager of the drive' },
        404: { description: 'No such drive the caller may see' },
      },
      handler: async ({ ctx, req, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        return mutate(ctx, req, 'drives.update', async (trx) => ({
          drive: presentDrive(
            await updateDrive(deps, trx, callerOf(ctx), actorOf(ctx), body.driveId, body.updates),
          ),
        }));
      },
    })
    .route({
      method: 'post',
      path: '/drives/:id/members',
      summary: 'Add people to a drive (contributors unless another role is given)',
      request: { params: driveParams, body: addMembersBody },
      responses: { 200: { description: 'The drive', schema: driveResponse } },
      handler: ({ ctx, req, params, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        return memberChange(ctx, req, params.id, { action: 'add', userIds: body.userIds, role: body.role });
      },
    })
    .route({
      method: 'patch',
      path: '/drives/:id/members/:userId',
      summary: "Change a member's role (manager or contributor; the owner stays owner)",
      request: { params: memberParams, body: memberRoleBody },
      responses: { 200: { description: 'The drive', schema: driveResponse } },
      handler: ({ ctx, req, params, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        return memberChange(ctx, req, params.id, { action: 'role', userId: params.userId, role: body.role });
      },
    })
    .route({
      method: 'delete',
      path: '/drives/:id/members/:userId',
      summary: 'Remove a member from a drive (never its owner)',
      request: { params: memberParams, query: drivesTenantQuery },
      responses: { 200: { description: 'The drive', schema: driveResponse } },
      handler: ({ ctx, req, params, query }) => {
        requireOwnTenant(ctx, query.tenantId);
        return memberChange(ctx, req, params.id, { action: 'remove', userId: params.userId });
      },
    });
}
